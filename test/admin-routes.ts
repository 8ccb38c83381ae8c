import { sql } from 'kysely'
import type { AppContext } from '../src/context.js'
import type { App } from '../src/http/server.js'
import type { Method } from './admin-calls.js'

// What the sweeps go through and compare: the operator routes the app serves, and the whole database's digest.

export type AdminOperation = { method: Method; path: string; operationId: string }

/** Every operation under /api/admin/v1 of the app's own OpenAPI document, in its order. */
export function adminOperations(app: App): AdminOperation[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, { operationId?: string }>> }
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/admin/v1/'))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase() as Method, path, operationId: op.operationId ?? '' })),
    )
}

/** Every route the app serves (`METHOD /path/:param`, HEAD left out), from its route table: hidden ones too. */
export function routeTable(app: App): string[] {
  const routes: string[] = []
  const path: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line)
    if (!m) continue
    path.length = m[1]!.length / 4
    path.push(m[2]!)
    for (const method of m[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path.join('')}`)
  }
  return routes
}

/** Every route the app serves under /api/admin/v1 (`METHOD /path/{param}`), from its route table: hidden ones too. */
export const adminRouteTable = (app: App): string[] =>
  routeTable(app)
    .map((route) => route.replace(/:(\w+)/g, '{$1}'))
    .filter((route) => route.split(' ')[1]!.startsWith('/api/admin/v1/'))

/**
 * The whole database but the tokens' last use (authentication touches it): one digest per table
 * of every row, so a call that changed anything anywhere shows. `ignoring` leaves columns out
 * (`updated_at`, which the log deliberately skips).
 */
export async function fingerprint(ctx: AppContext, ignoring: string[] = []): Promise<Record<string, string>> {
  const { rows: tables } = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN ('operator_tokens')
     ORDER BY 1`.execute(ctx.db)
  const row = sql`(to_jsonb(t) - ${ignoring}::text[])::text`
  const digests = tables.map(
    ({ name }) =>
      sql`SELECT ${name} AS name, md5(coalesce(string_agg(${row}, '|' ORDER BY ${row}), '')) AS digest FROM ${sql.table(name)} t`,
  )
  const { rows } = await sql<{ name: string; digest: string }>`${sql.join(digests, sql` UNION ALL `)}`.execute(ctx.db)
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]))
}
