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

/** A clock the test moves by hand (`advance`), starting `at` (now by default). */
export type HandClock = { now(): Date; advance(ms: number): void }

/**
 * A clock at the start of the current minute that moves only when the test says: the rate limits
 * count in fixed one-minute windows of the context's clock (src/http/rate-limit.ts), so every
 * attempt of a test on an app with this clock falls in one window until it advances a minute.
 */
export function minuteClock(): HandClock {
  let at = Math.floor(Date.now() / 60_000) * 60_000
  return { now: () => new Date(at), advance: (ms) => void (at += ms) }
}
