/**
 * A simulator's price list that tests and the demo steer by hand (a price change, a product off,
 * a product gone and back, cut-off hours, an error answer): unlike orders, whose outcome the
 * target's last character picks (simulator-steering.ts), a list has no target to read.
 */
export function steerablePriceList<T extends Record<string, unknown>>(key: keyof T & string, initial: T[]) {
  const codeOf = (entry: T) => String(entry[key])
  const listed = new Map(initial.map((entry) => [codeOf(entry), { ...entry }]))
  const removed = new Map<string, T>()
  let failure: { message: string; httpStatus: number } | undefined
  let reads = 0
  const find = (code: string) => {
    const entry = listed.get(code) ?? removed.get(code)
    if (!entry) throw new Error(`no product ${code} in the simulated list`)
    return entry
  }
  return {
    /** How many times the list was asked for: tests count upstream reads here. */
    get reads() {
      return reads
    },
    /** What the provider answers now: the list in its order, or the steered failure. */
    read(): { list: T[] } | { failure: { message: string; httpStatus: number } } {
      reads++
      return failure ? { failure } : { list: [...listed.values()].map((entry) => ({ ...entry })) }
    },
    /** A listed product as it stands now, without counting a read (the simulator's own look at its prices). */
    listed(code: string): T | undefined {
      return listed.get(code)
    },
    /** Changes fields of a product (listed or removed): its price, its status, its cut-off hours. */
    change(code: string, fields: Partial<T>) {
      Object.assign(find(code), fields)
    },
    /** Takes a product off the list (gone upstream); restore() puts it back. */
    remove(code: string) {
      removed.set(code, find(code))
      listed.delete(code)
    },
    restore(code: string) {
      listed.set(code, find(code))
      removed.delete(code)
    },
    add(entry: T) {
      listed.set(codeOf(entry), { ...entry })
    },
    /** Every later read answers this error (an HTTP status and the provider's message) until fail(undefined). */
    fail(message: string | undefined, httpStatus = 400) {
      failure = message === undefined ? undefined : { message, httpStatus }
    },
  }
}
export type SteerablePriceList<T extends Record<string, unknown>> = ReturnType<typeof steerablePriceList<T>>
