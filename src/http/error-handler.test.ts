import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { expect, it } from 'vitest'
import { AppError } from '../errors.js'
import { registerErrorHandlers } from './error-handler.js'

it("logs a switched-off provider's refusal at info and a lost dependency at warn, both without a stack; a real fault at error with one", async () => {
  const lines: { level: number; msg: string; err?: { stack?: string } }[] = []
  const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(chunk.toString())), done()) })
  const app = Fastify({ logger: { level: 'info', stream } })
  registerErrorHandlers(app)
  app.get('/off', async () => {
    throw new AppError('PRODUCT_TEMPORARILY_UNAVAILABLE')
  })
  app.get('/boom', async () => {
    throw new Error('boom')
  })
  app.get('/down', async () => {
    throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' })
  })
  expect((await app.inject('/off')).json()).toEqual({ message: 'PRODUCT_TEMPORARILY_UNAVAILABLE' })
  expect((await app.inject('/boom')).json()).toEqual({ message: 'INTERNAL_ERROR' })
  expect((await app.inject('/down')).json()).toEqual({ message: 'SERVICE_UNAVAILABLE' })
  await app.close()
  const refusal = lines.find((l) => l.msg.includes('product temporarily unavailable'))
  expect(refusal).toMatchObject({ level: 30 })
  expect(refusal?.err).toBeUndefined()
  const outage = lines.find((l) => l.msg.includes('a dependency failed'))
  expect(outage).toMatchObject({ level: 40, cause: 'Connection terminated unexpectedly' })
  expect(outage?.err).toBeUndefined()
  expect(lines.filter((l) => l.level >= 50).map((l) => [l.msg, Boolean(l.err?.stack)])).toEqual([['request failed', true]])
})

it('answers a lost named statement 503 and tells the operator once, at error level, what to change', async () => {
  const lines: { level: number; msg: string }[] = []
  const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(chunk.toString())), done()) })
  const app = Fastify({ logger: { level: 'info', stream } })
  registerErrorHandlers(app)
  app.get('/lost', async () => {
    throw Object.assign(new Error('prepared statement "k0" does not exist'), { code: '26000' })
  })
  for (let i = 0; i < 3; i++) expect((await app.inject('/lost')).json()).toEqual({ message: 'SERVICE_UNAVAILABLE' })
  await app.close()
  const hints = lines.filter((l) => l.msg.includes('DB_NAMED_STATEMENTS=false'))
  expect(hints.map((l) => l.level)).toEqual([50])
  expect(hints[0].msg).toContain('PgBouncer >= 1.21 with max_prepared_statements')
  expect(lines.filter((l) => l.msg.includes('a dependency failed'))).toHaveLength(3)
})
