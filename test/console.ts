import type { App } from '../src/http/server.js'
import { ADMIN_TOKEN } from './app.js'

/** A console visitor over app.inject: keeps its cookies and the last page's CSRF token, like a browser. */
export type Visitor = {
  get(url: string): Promise<{ status: number; body: string; location?: string }>
  post(url: string, form: Record<string, string>, options?: { csrf?: string }): Promise<{ status: number; body: string; location?: string }>
  csrf: string
  cookies: Map<string, string>
}

export function visitor(app: App): Visitor {
  const cookies = new Map<string, string>()
  const jar = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  const v: Visitor = {
    csrf: '',
    cookies,
    async get(url) {
      return answer(await app.inject({ method: 'GET', url, headers: { cookie: jar() } }))
    },
    async post(url, form, options = {}) {
      const payload = new URLSearchParams({ _csrf: options.csrf ?? v.csrf, ...form }).toString()
      const headers = { cookie: jar(), 'content-type': 'application/x-www-form-urlencoded' }
      return answer(await app.inject({ method: 'POST', url, headers, payload }))
    },
  }
  const answer = (res: Awaited<ReturnType<App['inject']>>) => {
    for (const c of res.cookies) {
      if (c.value === '' || c.maxAge === 0) cookies.delete(c.name)
      else cookies.set(c.name, c.value)
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(res.body)
    if (token) v.csrf = token[1]
    return { status: res.statusCode, body: res.body, location: res.headers.location as string | undefined }
  }
  return v
}

export async function signedIn(app: App): Promise<Visitor> {
  const v = visitor(app)
  await v.get('/console/sign-in')
  const res = await v.post('/console/sign-in', { token: ADMIN_TOKEN })
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status} ${res.body.slice(0, 300)}`)
  return v
}
