import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { signedIn, visitor } from '../../../test/console.js'

describe('operator console: sessions', () => {
  it('answers nothing without a session, signs in with the admin token, and out again', async () => {
    const { app, ctx } = await createTestApp()
    const stranger = visitor(app)
    const refused = await stranger.get('/console')
    expect(refused.status).toBe(303)
    expect(refused.location).toBe('/console/sign-in')
    expect((await stranger.get('/console/resellers')).status).toBe(303)

    await stranger.get('/console/sign-in')
    const wrong = await stranger.post('/console/sign-in', { token: 'not-the-token-at-all-000' })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toContain('That is not the admin token.')

    const operator = await signedIn(app)
    const session = operator.cookies.get('console_session')!
    const overview = await operator.get('/console')
    expect(overview.status).toBe(200)
    expect(overview.body).toContain('Sales today')
    expect(await ctx.db.selectFrom('console_sessions').select('token_hash').execute()).toHaveLength(1)

    expect((await operator.post('/console/sign-out', {})).location).toBe('/console/sign-in')
    expect(await ctx.db.selectFrom('console_sessions').select('token_hash').execute()).toHaveLength(0)
    // The old cookie, replayed, is refused: the session is gone server-side.
    const replay = await app.inject({ method: 'GET', url: '/console', headers: { cookie: `console_session=${session}` } })
    expect(replay.statusCode).toBe(303)
  })
})
