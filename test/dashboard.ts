import { expect } from 'vitest'
import type { App } from '../src/http/server.js'
import { ADMIN_TOKEN } from './app.js'
import { visitor, type Visitor } from './console.js'

export const PASSWORD = 'correct horse battery'

/** Invites a person through the operator API and answers the invite link's path and token. */
export async function invite(app: App, accountId: number, email: string, role: 'owner' | 'staff' = 'owner') {
  const res = await app.inject({
    method: 'POST',
    url: `/api/admin/v1/resellers/${accountId}/users`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { email, role },
  })
  expect(res.statusCode, res.body).toBe(200)
  const data = res.json().data as { id: number; invite_url: string }
  const path = new URL(data.invite_url).pathname
  return { id: data.id, path, token: path.split('/').pop()! }
}

/** A dashboard user of the account, invited, with the password set through the invite page: signed in. */
export async function dashboardVisitor(app: App, accountId: number, email: string, role: 'owner' | 'staff' = 'owner'): Promise<Visitor> {
  const { path } = await invite(app, accountId, email, role)
  const v = visitor(app)
  expect((await v.get(path)).status).toBe(200)
  const res = await v.post(path, { password: PASSWORD, password_again: PASSWORD })
  expect([res.status, res.location], res.body).toEqual([303, '/dashboard'])
  return v
}

/** A fresh visitor signing in with email and password. */
export async function signIn(app: App, email: string, password = PASSWORD) {
  const v = visitor(app)
  await v.get('/dashboard/sign-in')
  const res = await v.post('/dashboard/sign-in', { email, password })
  return { v, res }
}

/** Every dashboard route as `METHOD /path` (from the router), so sweeps cover routes added later. */
export function dashboardRoutes(app: App): string[] {
  const routes: string[] = []
  for (const method of ['GET', 'POST'] as const) {
    const path: string[] = []
    for (const line of app.printRoutes({ method, commonPrefix: false }).split('\n')) {
      const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line)
      if (!m) continue
      path.length = m[1]!.length / 4
      path.push(m[2]!)
      const full = path.join('')
      if (m[3]?.split(', ').includes(method) && full.startsWith('/dashboard')) routes.push(`${method} ${full}`)
    }
  }
  return routes
}
