import type { AppContext } from '../context.js'
import type { Actor } from '../db/acting.js'
import { buildApp } from '../http/server.js'

export type Call = { method: string; url: string; body?: object }
export type Answer = { status: number; body: unknown }

/**
 * Who ADMIN_TOKEN acts as when the CLI opens the database itself (docs/design.md §11d): an owner, logged
 * under its own name, so the audit log tells a write made beside the service from one made through it.
 */
export const CLI_DATABASE_ACTOR: Actor = { id: null, name: 'cli (database)', role: 'owner' }

/** One call through the same routes, in this process, on a context whose database the CLI opened itself. */
export async function callInProcess(ctx: AppContext, call: Call, bearer: string): Promise<Answer> {
  const app = await buildApp({ ...ctx, adminTokenActor: CLI_DATABASE_ACTOR })
  try {
    const res = await app.inject({
      method: call.method as 'GET',
      url: call.url,
      headers: { authorization: `Bearer ${bearer}` },
      payload: call.body,
    })
    return { status: res.statusCode, body: res.json() }
  } finally {
    await app.close()
  }
}
