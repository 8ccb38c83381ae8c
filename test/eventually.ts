/**
 * The one polling helper of the tests: asks `probe` until `ready` holds and answers its last value.
 * The timeout is a safety net for a hung run, never the assertion: a test waits for an observation
 * (a row, a request, a log line), then asserts on what it saw. On timeout it fails naming `what`
 * and the last value seen.
 */
export type EventuallyOptions = {
  /** The safety net: how long to keep asking before failing (default a minute). */
  timeoutMs?: number
  /** The pause between two probes (default 100 ms). */
  intervalMs?: number
}

export async function eventually<T>(
  what: string,
  probe: () => T | Promise<T>,
  ready: (value: T) => boolean,
  { timeoutMs = 60_000, intervalMs = 100 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (ready(value)) return value
    if (Date.now() > deadline) throw new Error(`never: ${what} within ${timeoutMs} ms (last: ${show(value)})`)
    await pause(intervalMs)
  }
}

/** Waits until `check` answers true; the same as `eventually` for a yes/no probe. */
export async function until(what: string, check: () => boolean | Promise<boolean>, options: EventuallyOptions = {}): Promise<void> {
  await eventually(what, check, (yes) => yes, options)
}

/** A pause, for pacing a load or a scripted fake; never to wait for an outcome (use `eventually`). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function show(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 500)
  } catch {
    return String(value)
  }
}

/**
 * Waits until the current minute is in its first half: the rate limits count in fixed one-minute
 * windows (src/http/rate-limit.ts), so a few seconds of attempts begun now all fall in one window.
 */
export async function untilEarlyInMinute(): Promise<number> {
  await until('the first half of a minute', () => Date.now() % 60_000 < 30_000, { timeoutMs: 35_000, intervalMs: 250 })
  return Math.floor(Date.now() / 60_000)
}

/** The rate limits' current window (see untilEarlyInMinute). */
export const rateWindow = (): number => Math.floor(Date.now() / 60_000)
