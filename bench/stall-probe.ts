/**
 * A process that does next to nothing: it wakes every 10 ms and notes how late it woke. Stalls it
 * sees are the machine's (the cores taken, or the host's pauses), not the service's: beside a
 * latency figure they tell a slow service from a stalled machine.
 */
import { spawn } from 'node:child_process'

const PROBE = `
const TICK_MS = 10
let lateness = []
let last = performance.now()
setInterval(() => {
  const now = performance.now()
  lateness.push(Math.max(0, now - last - TICK_MS))
  last = now
}, TICK_MS)
process.on('message', (m) => {
  if (m === 'reset') lateness = []
  if (m === 'read') {
    const sorted = [...lateness].sort((a, b) => a - b)
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
    process.send({ p99: at(0.99), max: sorted.at(-1) ?? 0 })
  }
})
`

export type StallReading = { p99_ms: number | null; max_ms: number | null }

export function startStallProbe() {
  const child = spawn(process.execPath, ['-e', PROBE], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return {
    /** Forgets what it saw so far: the next read covers what follows. */
    reset: () => void (child.connected && child.send('reset')),
    /** A probe that does not answer within 2 s reads null: the bench goes on without it. */
    read: () =>
      new Promise<StallReading>((resolve) => {
        const gone = setTimeout(() => resolve({ p99_ms: null, max_ms: null }), 2_000)
        child.once('message', (m: { p99: number; max: number }) => {
          clearTimeout(gone)
          resolve({ p99_ms: Number(m.p99.toFixed(1)), max_ms: Number(m.max.toFixed(1)) })
        })
        if (child.connected) child.send('read')
      }),
    stop: () => void child.kill(),
  }
}
