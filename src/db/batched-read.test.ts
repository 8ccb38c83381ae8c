import { describe, expect, it } from 'vitest'
import { batchedRead } from './batched-read.js'

/** A reader over a table in memory that records each statement's keys; `refuse` fails any statement holding that key. */
function recorded(table: Map<number, string>, refuse?: number) {
  const statements: number[][] = []
  const read = batchedRead(
    async (keys: number[]) => {
      statements.push(keys)
      // What the statement sees is fixed when it is sent; its answer arrives later.
      const seen = new Map(keys.filter((k) => table.has(k)).map((k) => [k, table.get(k)!]))
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (refuse !== undefined && keys.includes(refuse)) throw new Error(`refused ${refuse}`)
      return seen
    },
    { maxKeys: 3, sharedFailure: (e) => (e as Error).message === 'database gone' },
  )
  return { read, statements }
}

describe('batchedRead', () => {
  it('answers the reads of one turn with one statement per maxKeys keys, each key asked once', async () => {
    const { read, statements } = recorded(
      new Map([
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
        [4, 'd'],
      ]),
    )
    const answers = await Promise.all([read(1), read(2), read(1), read(3), read(4), read(9)])
    expect(answers).toEqual(['a', 'b', 'a', 'c', 'd', undefined])
    expect(statements).toEqual([
      [1, 2, 3],
      [4, 9],
    ])
  })

  it('never joins a statement already sent: a later read sees later changes', async () => {
    const table = new Map([[1, 'before']])
    const { read, statements } = recorded(table)
    const first = read(1)
    await new Promise((resolve) => setImmediate(resolve))
    table.set(1, 'after')
    const second = read(1)
    expect([await first, await second]).toEqual(['before', 'after'])
    expect(statements).toEqual([[1], [1]])
  })

  it('fails only the key the statement refused, asking the others one by one', async () => {
    const { read, statements } = recorded(
      new Map([
        [1, 'a'],
        [2, 'b'],
      ]),
      2,
    )
    const answers = await Promise.allSettled([read(1), read(2)])
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected'])
    expect(answers[0]).toMatchObject({ value: 'a' })
    expect(statements).toEqual([[1, 2], [1], [2]])
  })

  it('fails every read of the statement at once when the failure is shared (the database gone)', async () => {
    const statements: number[][] = []
    const read = batchedRead(
      async (keys: number[]) => {
        statements.push(keys)
        throw new Error('database gone')
      },
      { sharedFailure: (e) => (e as Error).message === 'database gone' },
    )
    const answers = await Promise.allSettled([read(1), read(2)])
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected'])
    expect(statements).toEqual([[1, 2]])
  })
})
