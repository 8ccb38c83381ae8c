import { afterAll, describe, expect, it } from 'vitest'
import { ACCESS, mayCall, ROLES } from '../src/modules/team/index.js'
import { createTestApp } from './app.js'
import { readUrl, WRITE_CALLS, type AdminCall } from './admin-calls.js'
import { sweepGateway, sweepWorld } from './sweep-world.js'
import { adminOperations, adminRouteTable, fingerprint } from './admin-routes.js'
import { operatorWithToken, latestAuditId } from './team.js'
import { startUpstreams } from './upstreams.js'

// docs/design.md §11d: every operator route checks the caller's role against one table
// (modules/team/roles.ts). Each route × each role: a role the table refuses gets 403
// FORBIDDEN_FOR_ROLE and the database stays exactly as it was; a role it admits is never refused.
const up = await startUpstreams()
afterAll(() => up.close())
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' }, {}, { paymentGateway: sweepGateway })
const world = await sweepWorld(app, ctx, up)
const operations = adminOperations(app)
const people = await Promise.all(ROLES.map((role) => operatorWithToken(ctx, role)))
const lastAuditId = () => latestAuditId(ctx)

describe('the roles table', () => {
  it('names every operator route of the app, each by its operation id', () => {
    expect(operations.length).toBeGreaterThan(60)
    const missing = operations
      .filter((op) => !(op.operationId in ACCESS))
      .map((op) => `${op.method} ${op.path} (${op.operationId || 'no id'})`)
    expect(missing, 'operator routes with no entry in ACCESS (modules/team/roles.ts): refused to everyone').toEqual([])
    // A route left out of the document has no operation id, so no rule: it must not exist.
    const documented = new Set(operations.map((op) => `${op.method} ${op.path}`))
    expect(
      adminRouteTable(app).filter((route) => !documented.has(route)),
      'operator routes missing from the OpenAPI document',
    ).toEqual([])
  })

  it('is what each route enforces, for every role: refused means 403 and nothing changed; admitted means served', async () => {
    const calls = new Map(WRITE_CALLS)
    const refusedChanges: string[] = []
    const wronglyRefused: string[] = []
    const wronglyServed: string[] = []
    let refusals = 0
    // A refused call is the one the audit sweep makes succeed: refused, it would have changed something.
    for (const op of operations) {
      for (const person of people) {
        const callOf = calls.get(op.operationId)
        const call: AdminCall = callOf ? await callOf(world, ctx, up) : { method: op.method, url: readUrl(op.path, world) }
        expect(call.method, op.operationId).toBe(op.method)
        const allowed = mayCall(person.role, op.operationId)
        const [before, auditBefore] = allowed ? [undefined, 0] : [await fingerprint(ctx), await lastAuditId()]
        const res = await app.inject({
          method: call.method,
          url: `/api/admin/v1${call.url}`,
          headers: { ...person.headers, ...call.headers },
          payload: call.payload,
        })
        const what = `${person.role} ${op.method} ${op.path} → ${res.statusCode} ${res.body.slice(0, 120)}`
        if (allowed) {
          if (res.statusCode === 401 || res.statusCode === 403) wronglyRefused.push(what)
          continue
        }
        refusals++
        if (res.statusCode !== 403 || res.json().message !== 'FORBIDDEN_FOR_ROLE') wronglyServed.push(what)
        else expect(res.json().data, what).toEqual({ role: person.role, allowed: ROLES.filter((r) => mayCall(r, op.operationId)) })
        const after = await fingerprint(ctx)
        const changed = Object.keys(after).filter((table) => after[table] !== before![table])
        if (changed.length > 0 || (await lastAuditId()) !== auditBefore) refusedChanges.push(`${what}: changed ${changed.join(', ')}`)
      }
    }
    expect(wronglyServed, 'calls the table refuses that were not refused with 403 FORBIDDEN_FOR_ROLE').toEqual([])
    expect(refusedChanges, 'refused calls that changed the database').toEqual([])
    expect(wronglyRefused, 'calls the table admits that were refused').toEqual([])
    // viewer, support and finance are refused most writes; the sweep has to have tried them.
    expect(refusals).toBeGreaterThan(60)
  })

  it('refuses nobody their own (self) routes and an owner nothing', () => {
    for (const [operationId, access] of Object.entries(ACCESS)) {
      expect(mayCall('owner', operationId), operationId).toBe(true)
      if ('self' in access) for (const role of ROLES) expect(mayCall(role, operationId), `${role} ${operationId}`).toBe(true)
    }
    expect(mayCall('owner', 'adminNoSuchRoute')).toBe(false)
  })
})
