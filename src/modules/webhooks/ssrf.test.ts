import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { createReseller } from '../../../test/factory.js'
import { startReceiver } from '../../../test/receiver.js'
import { callbackUrlProblem, embeddedIPv4, guardedLookup, isNonPublicAddress, type Resolver } from './receiver-address.js'
import { signRequest } from './signing.js'
import { createTransport } from './transport.js'

const REFUSED = ['http://169.254.169.254/', 'https://10.0.0.1/', 'https://[::ffff:127.0.0.1]/', 'https://localhost/']

const request = signRequest({
  event: 'webhook.test',
  refId: 'TEST-1',
  invoice: 'TEST-X',
  signedStatus: 'test',
  webhookId: 'evt_1',
  at: new Date(),
  body: '{}',
  secret: 'whsec_c2VjcmV0',
})
const resolvingTo =
  (address: string, family = 4): Resolver =>
  async () => [{ address, family }]

describe('SSRF guard in production', () => {
  it('PUT /v1/webhook refuses http, localhost and literal non-public addresses', async () => {
    const { app } = await createTestApp({}, { appEnv: 'production' })
    const r = await createReseller(app)
    for (const url of [
      ...REFUSED,
      'http://shop.example/h',
      'http://127.0.0.1:8080/h',
      'https://192.168.1.10/h',
      'https://[fd00:ec2::254]/',
      'https://[::1]/',
      'https://0.0.0.0/',
      'https://api.localhost/h',
    ]) {
      const res = await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: r.headers, payload: { callback_url: url } })
      expect(res.statusCode, url).toBe(422)
      expect(res.json().errors, url).toHaveProperty('callback_url')
    }
    const ok = await app.inject({
      method: 'PUT',
      url: '/api/v1/webhook',
      headers: r.headers,
      payload: { callback_url: 'https://shop.example/hooks' },
    })
    expect(ok.statusCode).toBe(200)
  })

  it('the transport refuses them at connect time, also a hostname that resolves to 127.0.0.1', async () => {
    const receiver = await startReceiver()
    const transport = createTransport({ production: true, timeoutMs: 2_000, resolve: resolvingTo('127.0.0.1') })
    try {
      for (const url of REFUSED) {
        const outcome = await transport.post(url, request)
        expect(outcome, url).toMatchObject({ statusCode: null, failure: { detail: expect.stringMatching(/https|public/) } })
      }
      // DNS says loopback: refused after resolution, before any connection.
      const rebound = await transport.post(`https://receiver.test:${receiver.port}/hook`, request)
      expect(rebound).toMatchObject({
        statusCode: null,
        failure: { kind: 'address not allowed', detail: 'receiver.test resolves to a non-public address' },
      })
      expect(receiver.received).toHaveLength(0)
    } finally {
      transport.close()
    }
    // The same resolver outside production reaches the receiver: the guard is what stopped it.
    const open = createTransport({ production: false, timeoutMs: 2_000, resolve: resolvingTo('127.0.0.1') })
    try {
      expect(await open.post(`http://receiver.test:${receiver.port}/hook`, request)).toMatchObject({ statusCode: 200, failure: null })
      expect(receiver.received).toHaveLength(1)
    } finally {
      open.close()
    }
  })

  it('the lookup refuses any non-public answer among several and passes public ones', async () => {
    const lookup = (resolve: Resolver, all: boolean) =>
      new Promise<{ error: Error | null; address: unknown }>((done) =>
        guardedLookup(resolve, true)('shop.example', { all }, (error, address) => done({ error, address })),
      )
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ]
    expect((await lookup(mixed, true)).error?.message).toMatch(/non-public/)
    expect(await lookup(resolvingTo('93.184.216.34'), false)).toEqual({ error: null, address: '93.184.216.34' })
    expect(await lookup(resolvingTo('2606:2800:220:1::1', 6), true)).toEqual({
      error: null,
      address: [{ address: '2606:2800:220:1::1', family: 6 }],
    })
    expect((await lookup(resolvingTo('::ffff:169.254.169.254', 6), false)).error).not.toBeNull()
  })

  it('classifies addresses, IPv4-mapped and NAT64 forms included', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '::ffff:0:7f00:1',
      '2002:7f00:1::1',
      '224.0.0.1',
      'not-an-ip',
    ]) {
      expect(isNonPublicAddress(ip), ip).toBe(true)
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1::1', '::ffff:8.8.8.8']) expect(isNonPublicAddress(ip), ip).toBe(false)
    expect(embeddedIPv4('::ffff:7f00:1')).toBe('127.0.0.1')
    expect(embeddedIPv4('64:ff9b::808:808')).toBe('8.8.8.8')
    expect(embeddedIPv4('2001:db8::1')).toBeUndefined()
    for (const url of REFUSED) expect(callbackUrlProblem(url, true), url).toBeDefined()
    expect(callbackUrlProblem('https://shop.example/h', true)).toBeUndefined()
  })
})

describe('transport', () => {
  it('a receiver that does not answer in time is a timeout failure', async () => {
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 2_000 }))
    const transport = createTransport({ production: false, timeoutMs: 200 })
    try {
      expect(await transport.post(receiver.url, request)).toMatchObject({
        statusCode: null,
        failure: { kind: 'timeout', detail: 'timeout after 200 ms' },
      })
    } finally {
      transport.close()
    }
  })
})
