/** Time as the delivery schedule sees it; tests pass a clock they move by hand. */
export type Clock = { now(): Date }

export const systemClock: Clock = { now: () => new Date() }

/**
 * Waits after each failed attempt (docs/design.md §8): the spec's fast five (+0 then +1, +2, +4, +8 s),
 * then a tail for receivers down longer than a deploy; after the last the delivery is `failed`.
 * The fifth failure starts the slow tail, which the claim finds by time, not by account (delivery.queries.ts).
 */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000]

/** Attempts in one round, the first included: the failure after the last one ends it. */
export const ATTEMPTS_PER_ROUND = RETRY_DELAYS_MS.length + 1

/** When to try again after `failures` consecutive failures, or null when the round is over. */
export function nextAttemptAt(failures: number, after: Date): Date | null {
  const delay = RETRY_DELAYS_MS[failures - 1]
  return delay === undefined ? null : new Date(after.getTime() + delay)
}
