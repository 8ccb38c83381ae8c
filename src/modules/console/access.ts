import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { currentActing } from '../../db/acting.js'
import type { SignInStage } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import { authorizeOperator } from '../../http/auth.js'
import { rememberConsoleLanguage } from '../team/index.js'
import { actorOf, consoleSession, SESSION_COOKIE, type ConsoleSession } from './sessions.service.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who reaches a console route: `open` anyone (sign-in, an invitation, the assets); `step` any
     * live session, whatever its stage (the sign-in's own steps, sign-out: each checks the stage
     * itself, after the CSRF check). Unset: a signed-in session whose role the route's operationId admits.
     */
    consoleAccess?: 'open' | 'step'
  }
}

/**
 * A person's console language follows them from browser to browser: a switch (`?lang=`) is kept on
 * their row, and a page asked without one speaks what they last chose (the cookie serves the admin
 * token's session, and a person who never switched).
 */
async function followPersonsLanguage(ctx: AppContext, request: FastifyRequest, session: ConsoleSession) {
  const person = session.operator
  if (!person) return
  const asked = (request.query as { lang?: string } | undefined)?.lang
  if (asked === 'en' || asked === 'id') {
    if (asked !== person.lang) await rememberConsoleLanguage(ctx.db, person.id, asked)
  } else if (person.lang) {
    request.consoleLang = person.lang
  }
}

/** The page a sign-in still under way is sent to, whatever it asked for. */
export const STEP_PAGES: Record<Exclude<SignInStage, 'signed_in'>, string> = {
  second_factor: '/console/sign-in/code',
  enrol: '/console/enrol',
}

// htmx follows HX-Redirect; a plain browser the 303.
const sendTo = (reply: FastifyReply, to: string) => reply.header('hx-redirect', to).redirect(to, 303)

/**
 * The console's gate, before anything is read: the session (live, its operator active, begun
 * after their sessions_valid_from), its stage, then the route's operation against the role
 * (modules/team/roles.ts; a 403 FORBIDDEN_FOR_ROLE page, nothing done). A write names its operator
 * and operation in the acting store, so the audit triggers log every row it changes.
 */
export async function consoleAccess(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const { consoleAccess: access, operationId } = request.routeOptions.config
  if (access === 'open') return
  const session = await consoleSession(ctx.db, request.cookies[SESSION_COOKIE])
  if (!session) return sendTo(reply, '/console/sign-in')
  request.consoleSession = session
  request.operator = actorOf(session)
  await followPersonsLanguage(ctx, request, session)
  if (access === 'step') return
  if (session.stage !== 'signed_in') return sendTo(reply, STEP_PAGES[session.stage])
  // A page without an operation shows what any operator reads; a change without one is refused (fail closed).
  if (operationId === undefined && (request.method === 'GET' || request.method === 'HEAD')) {
    const store = currentActing()
    if (store) store.actor = request.operator
    return
  }
  try {
    await authorizeOperator(request)
  } catch (error) {
    // The page says it in words: whose role, and which roles it takes.
    if (!(error instanceof AppError) || error.code !== 'FORBIDDEN_FOR_ROLE') throw error
    const { role, allowed } = error.data as { role: string; allowed: string[] }
    const takes = allowed.length ? `it takes ${allowed.join(' or ')}` : 'no role may'
    throw new AppError('FORBIDDEN_FOR_ROLE', { data: error.data, detail: `your role, ${role}, cannot do this: ${takes}` })
  }
}
