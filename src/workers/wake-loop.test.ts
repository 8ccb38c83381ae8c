import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FOLLOW_UPS_MS, PASS_GAP_MS, createWakeLoop, type PassResult } from './wake-loop.js'

// The delivery worker's wake-up policy with scripted passes and fake timers: when each pass runs.
type Pass = { at: number; relay: boolean; claim: boolean }
const WORK: PassResult = { relayed: 2, claimed: 2 }
const NOTHING: PassResult = { relayed: 0, claimed: 0 }

function scripted(results: PassResult[], untilDue: () => number | null = () => null, pollMs = 2_000) {
  const passes: Pass[] = []
  const started = Date.now()
  const loop = createWakeLoop({
    async pass(relay, claim) {
      passes.push({ at: Date.now() - started, relay, claim })
      return results.shift() ?? NOTHING
    },
    untilDue: async () => untilDue(),
    pollMs,
    onError: (err) => {
      throw err
    },
  })
  return { loop, passes }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the webhook worker wake-up loop', () => {
  it('runs pass after pass, PASS_GAP_MS apart, while they find work, and only then follows up', async () => {
    const { loop, passes } = scripted([WORK, WORK, WORK, NOTHING])
    loop.wake(true, false)
    await vi.advanceTimersByTimeAsync(3 * PASS_GAP_MS)
    // The commits that missed the bell during one pass are taken up by the next.
    expect(passes).toEqual([0, 1, 2, 3].map((n) => ({ at: n * PASS_GAP_MS, relay: true, claim: false })))
    await vi.advanceTimersByTimeAsync(FOLLOW_UPS_MS[0] - 1)
    expect(passes).toHaveLength(4)
    await vi.advanceTimersByTimeAsync(1)
    expect(passes).toHaveLength(5)
    await loop.stop()
  })

  it('a wake soon after a pass waits for the gap; one after a quiet while runs at once', async () => {
    const { loop, passes } = scripted([NOTHING, NOTHING, NOTHING])
    loop.wake(true, false)
    await vi.advanceTimersByTimeAsync(2)
    loop.wake(true, false)
    await vi.advanceTimersByTimeAsync(PASS_GAP_MS - 3)
    expect(passes.map((p) => p.at)).toEqual([0])
    await vi.advanceTimersByTimeAsync(1)
    expect(passes.map((p) => p.at)).toEqual([0, PASS_GAP_MS])
    await vi.advanceTimersByTimeAsync(17)
    loop.wake(true, false)
    await vi.advanceTimersByTimeAsync(0)
    expect(passes.at(-1)!.at).toBe(PASS_GAP_MS + 17)
    await loop.stop()
  })

  it('then follows up 10, 25, 50, 100 and 200 ms apart (relays only), then polls (claims too)', async () => {
    const { loop, passes } = scripted([WORK, NOTHING], () => null, 2_000)
    loop.wake(true, true)
    await vi.advanceTimersByTimeAsync(5_000)
    const gaps = passes.slice(2).map((p, i) => p.at - passes[i + 1].at)
    expect(gaps.slice(0, 5)).toEqual([10, 25, 50, 100, 200])
    expect(passes.slice(2, 7).every((p) => p.relay && !p.claim)).toBe(true)
    expect(gaps.slice(5, 7)).toEqual([2_000, 2_000])
    expect(passes.slice(7).every((p) => p.relay && p.claim)).toBe(true)
    await loop.stop()
  })

  it('wakes for a retry due before the next follow-up, and claims then', async () => {
    const { loop, passes } = scripted([NOTHING, NOTHING], () => 12)
    loop.wake(true, true)
    await vi.advanceTimersByTimeAsync(0)
    expect(passes).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(FOLLOW_UPS_MS[0])
    expect(passes.at(-1)).toMatchObject({ at: 10, claim: false })
    await vi.advanceTimersByTimeAsync(12)
    expect(passes.at(-1)).toMatchObject({ at: 22, relay: true, claim: true })
    await loop.stop()
  })

  it('a wake during a pass runs another after it; a failed pass is tried again at the poll', async () => {
    let release = () => {}
    const blocked = new Promise<void>((resolve) => (release = resolve))
    const passes: boolean[] = []
    const errors: unknown[] = []
    let calls = 0
    const loop = createWakeLoop({
      async pass(_relay, claim) {
        passes.push(claim)
        calls++
        if (calls === 1) await blocked
        if (calls === 2) throw new Error('database gone')
        return NOTHING
      },
      untilDue: async () => null,
      pollMs: 1_000,
      onError: (err) => errors.push(err),
    })
    loop.wake(true, false)
    loop.wake(false, true)
    release()
    await vi.advanceTimersByTimeAsync(PASS_GAP_MS)
    expect(passes).toEqual([false, true])
    expect(errors).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(999 - PASS_GAP_MS)
    expect(passes).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(PASS_GAP_MS + 1)
    expect(passes).toEqual([false, true, true])
    await loop.stop()
    loop.wake(true, true)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(passes).toHaveLength(3)
  })
})
