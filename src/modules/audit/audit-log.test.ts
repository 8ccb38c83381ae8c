import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { signedIn } from '../../../test/console.js'
import { signedInOperator } from '../../../test/console-team.js'
import { createItem, createReseller } from '../../../test/factory.js'
import { operatorWithToken } from '../../../test/team.js'

// docs/design.md §11d: the log as the operator reads it: GET /api/admin/v1/audit (JSON or CSV), the console page, its CSV.
const { app, ctx } = await createTestApp()
const asAdminToken = { authorization: `Bearer ${ADMIN_TOKEN}` }
const audit = (query = '', headers: Record<string, string> = asAdminToken) =>
  app.inject({ method: 'GET', url: `/api/admin/v1/audit${query ? `?${query}` : ''}`, headers })
const COLUMNS = [
  'id',
  'at',
  'actor_id',
  'actor',
  'role',
  'client_ip',
  'request_id',
  'action',
  'target_type',
  'target_id',
  'change',
  'changes',
]

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++)
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') (row.push(field), (field = ''))
    else if (c === '\r' && text[i + 1] === '\n') {
      ;(row.push(field), rows.push(row), (row = []), (field = ''), i++)
    } else field += c
  }
  expect(field, 'the CSV ends with CRLF').toBe('')
  return rows
}

// A small store's history: the admin token and one admin operator, an item whose name needs CSV quoting.
const person = await operatorWithToken(ctx, 'admin')
const shop = await createReseller(app, { name: 'Toko, "Maju"', balance: 10_000 })
const item = await createItem(app, { name: 'Voucher "Gold", 25K', price: 10_000 })
const patched = await app.inject({
  method: 'PATCH',
  url: `/api/admin/v1/items/${item.id}`,
  headers: person.headers,
  payload: { price: 12_345 },
})
expect(patched.statusCode).toBe(200)
const all = async () => (await ctx.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').execute()).map((r) => r.id)

describe('GET /api/admin/v1/audit', () => {
  it('lists every row newest first, each with who, where, what and the changes', async () => {
    const res = await audit('per_page=100')
    expect(res.statusCode, res.body).toBe(200)
    const { data, meta } = res.json()
    expect(data.map((r: { id: number }) => r.id)).toEqual(await all())
    expect(meta).toMatchObject({ page: 1, per_page: 100, total: data.length, total_capped: false, next_cursor: null })
    const price = data.find((r: any) => r.action === 'adminUpdateItem')
    expect(Object.keys(price)).toEqual(COLUMNS)
    expect(price).toMatchObject({
      actor_id: person.id,
      actor: person.email,
      role: 'admin',
      client_ip: '127.0.0.1',
      action: 'adminUpdateItem',
      target_type: 'items',
      target_id: String(item.id),
      change: 'update',
      changes: { price: { before: 10_000, after: 12_345 } },
    })
    expect(price.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(price.request_id).toBe(patched.headers['x-request-id'])
  })

  it('filters by actor, action, target and period, each exactly', async () => {
    const ids = async (query: string) => (await audit(`per_page=100&${query}`)).json().data.map((r: { id: number }) => r.id)
    const rows = await ctx.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').execute()
    const where = (test: (r: (typeof rows)[number]) => boolean) => rows.filter(test).map((r) => r.id)
    expect(await ids(`actor_id=${person.id}`)).toEqual(where((r) => r.actor_id === person.id))
    expect(await ids(`actor=${encodeURIComponent(person.email)}`)).toEqual(where((r) => r.actor === person.email))
    expect(await ids('actor=admin%20token')).toEqual(where((r) => r.actor === 'admin token'))
    expect(await ids('actor=admin')).toEqual([])
    expect(await ids('action=adminAdjustBalance')).toEqual(where((r) => r.action === 'adminAdjustBalance'))
    expect(await ids(`target_type=accounts&target_id=${shop.id}`)).toEqual(
      where((r) => r.target_type === 'accounts' && r.target_id === String(shop.id)),
    )
    expect((await ids('target_type=ledger_entries')).length).toBe(1)
    // `from` counts its instant, `to` stops before it: adjacent periods never share a row.
    const pivot = rows.find((r) => r.action === 'adminUpdateItem')!
    const at = encodeURIComponent(new Date(pivot.at).toISOString())
    expect(await ids(`from=${at}`)).toEqual(where((r) => r.at >= pivot.at))
    expect(await ids(`to=${at}`)).toEqual(where((r) => r.at < pivot.at))
    expect(await ids(`from=${at}`)).toContain(pivot.id)
    expect(await ids(`to=${at}`)).not.toContain(pivot.id)
    expect(await ids(`action=adminUpdateItem&to=${at}`)).toEqual([])
  })

  it('pages like the other growing lists: numbered within the cap, then by cursor, never a row twice', async () => {
    const first = (await audit('per_page=2')).json()
    expect(first.data).toHaveLength(2)
    expect(first.meta).toMatchObject({ page: 1, per_page: 2, total: (await all()).length })
    const seen = [...first.data]
    for (let cursor = first.meta.next_cursor; cursor;) {
      const next = (await audit(`per_page=2&cursor=${cursor}`)).json()
      seen.push(...next.data)
      cursor = next.meta.next_cursor
    }
    expect(seen.map((r) => r.id)).toEqual(await all())
    const second = (await audit('per_page=2&page=2')).json()
    expect(second.data.map((r: { id: number }) => r.id)).toEqual((await all()).slice(2, 4))
  })

  it('refuses bad filters with 422 VALIDATION_ERROR, naming each field', async () => {
    const errorsOf = async (query: string) => {
      const res = await audit(query)
      expect(res.statusCode, query).toBe(422)
      expect(res.json().message).toBe('VALIDATION_ERROR')
      return res.json().errors
    }
    expect(await errorsOf('from=2026-12-01')).toEqual({ from: ['must be a date-time such as 2026-11-22T10:15:00Z'] })
    expect(await errorsOf('from=2026-12-31T23:59:60Z')).toEqual({
      from: ['must be an ISO 8601 time such as 2026-12-06T09:00:00Z (no leap second)'],
    })
    expect(await errorsOf('from=2026-12-02T00:00:00Z&to=2026-12-02T00:00:00Z&target_id=7')).toEqual({
      to: ['must be after from'],
      target_id: ['needs target_type: ids are per table (items 7 and accounts 7 are different rows)'],
    })
    expect(Object.keys(await errorsOf('actor_id=0&per_page=101&format=xml&cursor=nope'))).toEqual(
      expect.arrayContaining(['actor_id', 'per_page', 'format']),
    )
    expect(await errorsOf('cursor=nope')).toEqual({ cursor: ['is not a cursor this list handed out'] })
  })

  it('is for admins and owners: viewer, support and finance get 403 FORBIDDEN_FOR_ROLE', async () => {
    for (const role of ['viewer', 'support', 'finance'] as const) {
      const res = await audit('', (await operatorWithToken(ctx, role)).headers)
      expect([res.statusCode, res.json().message], role).toEqual([403, 'FORBIDDEN_FOR_ROLE'])
    }
    expect((await audit('', person.headers)).statusCode).toBe(200)
  })
})

describe('the audit log as CSV', () => {
  it('answers format=csv (or Accept: text/csv) with a header row and the rows the JSON list has, quoted as RFC 4180 says', async () => {
    const json = (await audit('per_page=100')).json().data
    for (const [query, headers] of [
      ['format=csv', asAdminToken],
      ['', { ...asAdminToken, accept: 'text/csv' }],
    ] as const) {
      const res = await audit(query, headers)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(res.headers['content-disposition']).toBe('attachment; filename="audit-log.csv"')
      expect(res.headers['x-truncated']).toBeUndefined()
      const [header, ...rows] = parseCsv(res.body)
      expect(header).toEqual(COLUMNS)
      expect(rows.map((r) => Number(r[0]))).toEqual(json.map((r: { id: number }) => r.id))
      for (const [i, r] of rows.entries()) {
        const want = json[i]
        expect(Object.fromEntries(COLUMNS.map((c, k) => [c, c === 'changes' ? JSON.parse(r[k]!) : r[k]]))).toEqual({
          ...Object.fromEntries(COLUMNS.map((c) => [c, want[c] === null ? '' : String(want[c])])),
          changes: want.changes,
        })
      }
    }
    // The name with a comma and quotes survives the trip, and the raw text shows the quoting.
    const csv = (await audit(`format=csv&target_type=items&target_id=${item.id}&action=adminCreateItem`)).body
    expect(csv).toContain('""Voucher \\""Gold\\"", 25K""')
    expect(JSON.parse(parseCsv(csv)[1]![11]!).name.after).toBe('Voucher "Gold", 25K')
    expect((await audit('format=json', { ...asAdminToken, accept: 'text/csv' })).headers['content-type']).toContain('application/json')
  })

  it(`holds at most the newest 50,000 rows, and says so in X-Truncated`, async () => {
    await sql`INSERT INTO audit_log (actor, role, action, target_type, target_id, change, changes)
              SELECT 'admin token', 'owner', 'csvBound', 'items', g::text, 'update', '{"price": {"before": 1, "after": 2}}'
                FROM generate_series(1, 50001) g`.execute(ctx.db)
    const res = await audit('format=csv&action=csvBound')
    expect(res.headers['x-truncated']).toBe('true')
    const rows = parseCsv(res.body).slice(1)
    expect(rows).toHaveLength(50_000)
    expect(rows[0]![9]).toBe('50001')
    expect(rows.at(-1)![9]).toBe('2')
    const whole = await audit('format=csv&action=csvBound&target_type=items&target_id=1')
    expect([whole.headers['x-truncated'], parseCsv(whole.body).length]).toEqual([undefined, 2])
  })
})

describe('the console page /console/audit', () => {
  it('shows the log with the same filters, each change as field: before → after, and links the CSV of those filters', async () => {
    const operator = await signedIn(app)
    const home = await operator.get('/console')
    expect(home.body).toContain('<a href="/console/audit">Audit log</a>')
    const page = await operator.get(`/console/audit?target_type=items&target_id=${item.id}&actor=&from=&to=`)
    expect(page.status).toBe(200)
    expect(page.body).toContain('<b>price</b>: 10000 → 12345')
    expect(page.body).toContain(person.email)
    expect(page.body).toContain(`<a href="/console/items/${item.id}">${item.id}</a>`)
    expect(page.body).not.toContain('adminAdjustBalance')
    const csvHref = `/console/audit.csv?target_type=items&amp;target_id=${item.id}`
    expect(page.body).toContain(`href="${csvHref}" id="audit-csv"`)
    const csv = await app.inject({ method: 'GET', url: csvHref.replaceAll('&amp;', '&'), headers: { cookie: cookieOf(operator) } })
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    const api = (await audit(`target_type=items&target_id=${item.id}&per_page=100`)).json().data
    expect(
      parseCsv(csv.body)
        .slice(1)
        .map((r) => Number(r[0])),
    ).toEqual(api.map((r: { id: number }) => r.id))
  })

  it('is for admins and owners: the nav shows it to them, a finance or support operator gets a 403 page and no CSV', async () => {
    for (const role of ['support', 'finance'] as const) {
      const { v } = await signedInOperator(app, ctx, role)
      expect((await v.get('/console')).body, role).not.toContain('href="/console/audit"')
      for (const url of ['/console/audit', '/console/audit.csv']) {
        const res = await v.get(url)
        expect([url, res.status, res.body.includes('FORBIDDEN_FOR_ROLE')], role).toEqual([url, 403, true])
      }
    }
    const { v } = await signedInOperator(app, ctx, 'admin')
    expect((await v.get('/console')).body).toContain('href="/console/audit"')
    expect((await v.get('/console/audit')).status).toBe(200)
    expect((await v.get('/console/audit.csv')).status).toBe(200)
  })

  it("reads from and to as whole days on the console's clock, and names a bad day or an empty period", async () => {
    const operator = await signedIn(app)
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ctx.config.leaderboardTz }).format(new Date())
    const yesterday = new Intl.DateTimeFormat('en-CA', { timeZone: ctx.config.leaderboardTz }).format(new Date(Date.now() - 86_400_000))
    expect((await operator.get(`/console/audit?action=adminUpdateItem&from=${today}&to=${today}`)).body).toContain('<b>price</b>')
    expect((await operator.get(`/console/audit?action=adminUpdateItem&to=${yesterday}`)).body).toContain('No row matches')
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      [`from=${today}&to=${yesterday}`, 'to'],
      ['actor_id=x', 'actor_id'],
    ]) {
      const res = await operator.get(`/console/audit?${query}`)
      expect([res.status, res.body.includes(field)], query).toEqual([422, true])
    }
  })
})

const cookieOf = (v: Awaited<ReturnType<typeof signedIn>>) => [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; ')
