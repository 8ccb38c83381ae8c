import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../test/app.js'
import { freePort, startServerProcess, type ServerProcess } from '../../test/server-process.js'
import { metricsServer } from './metrics.js'

// Apps are made at the top: createTestApp closes them in an afterAll, which only a file's top level registers.
const { app } = await createTestApp()
const separate = await createTestApp({ METRICS_PORT: '9464' })
const processes: ServerProcess[] = []
afterAll(() => processes.forEach((p) => p.child.kill('SIGKILL')))

describe('/metrics on the API port', () => {
  it('answers 401 UNAUTHORIZED without the admin token, or with another one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${ADMIN_TOKEN}x`, ADMIN_TOKEN, `Basic ${ADMIN_TOKEN}`]) {
      const res = await app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} })
      expect(res.statusCode, authorization).toBe(401)
      expect(res.json()).toEqual({ message: 'UNAUTHORIZED' })
      expect(res.body).not.toContain('http_requests_total')
    }
  })

  it('serves Prometheus text to the admin token as a bearer (how Prometheus sends it)', async () => {
    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toMatch(/^http_requests_total\{method="GET",route="\/metrics",status="401"\} [1-9]\d*$/m)
  })
})

describe('METRICS_PORT', () => {
  it('takes /metrics off the API port and serves it on its own listener, without a token', async () => {
    const onApi = await separate.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect(onApi.statusCode).toBe(404)
    expect(onApi.json()).toEqual({ message: 'NOT_FOUND' })
    await separate.app.inject({ url: '/healthz' })

    const listener = metricsServer(separate.app.metricsRegistry)
    try {
      const res = await listener.inject({ url: '/metrics' })
      expect(res.statusCode).toBe(200)
      expect(res.body).toMatch(/^http_requests_total\{method="GET",route="\/healthz",status="200"\} 1$/m)
      expect((await listener.inject({ url: '/api/v1/balance' })).json()).toEqual({ message: 'NOT_FOUND' })
    } finally {
      await listener.close()
    }
  })

  it('is started by the service process', async () => {
    const metricsPort = await freePort()
    const service = await startServerProcess({ METRICS_PORT: String(metricsPort) })
    processes.push(service)
    await fetch(`${service.base}/healthz`)
    expect((await fetch(`${service.base}/metrics`)).status).toBe(404)
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/healthz",status="200"\} 1$/m)
    // A real process also exports its runtime figures.
    expect(text).toContain('process_resident_memory_bytes')
  })
})
