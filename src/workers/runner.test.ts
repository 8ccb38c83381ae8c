import type { FastifyBaseLogger } from 'fastify'
import { expect, it } from 'vitest'
import { until } from '../../test/eventually.js'
import { startWorkers } from './runner.js'

it('logs each failed batch, and once what to change when a pooler lost the named statements', async () => {
  const lines: string[] = []
  const log = {
    error: (fields: object | string, message?: string) => lines.push(message ?? String(fields)),
  } as unknown as FastifyBaseLogger
  let runs = 0
  const lost = async () => {
    runs++
    throw Object.assign(new Error('prepared statement "k0" does not exist'), { code: '26000' })
  }
  const workers = startWorkers([{ name: 'lost', intervalMs: 1, runOnce: lost }], log)
  await until('three batches failed', () => runs >= 3)
  await workers.stop()
  expect(lines.filter((l) => l === 'worker batch failed').length).toBe(runs)
  expect(lines.filter((l) => l.includes('DB_NAMED_STATEMENTS=false'))).toHaveLength(1)
})
