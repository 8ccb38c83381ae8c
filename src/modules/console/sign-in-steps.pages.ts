import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { countFailedAuthentication } from '../../http/auth.js'
import { checkOperatorCode, confirmEnrolment, enrolmentFor, groupedSecret, qrSvg, SIGN_IN_LOCK_MINUTES } from '../team/index.js'
import { STEP_PAGES } from './access.js'
import { Form, Text } from './form.js'
import { formRefusal } from './refusals.js'
import { advanceSession, type ConsoleSession } from './sessions.service.js'

const step = { consoleAccess: 'step' as const }
const hide = true
const CodeBody = Form({ code: Text(100) })
/** How an authenticator app names the account it keeps a code for. */
const ISSUER = 'Reseller console'

/** Where a session belongs when it asks for a step it is not at. */
const homeOf = (session: ConsoleSession) => (session.stage === 'signed_in' ? '/console' : STEP_PAGES[session.stage])

/**
 * The sign-in's steps after the password: the code (the app's 6 digits or a recovery code), and the
 * enrolment a role that needs a second factor goes through at first sign-in (QR code, first code,
 * ten recovery codes shown once). An operator signed in without a second factor enrols here too.
 */
export function signInStepPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  const hours = ctx.config.consoleSessionHours
  const enrolling = (session: ConsoleSession) =>
    session.operator !== undefined && (session.stage === 'enrol' || (session.stage === 'signed_in' && !session.operator.hasSecondFactor))
  const enrolPage = async (reply: FastifyReply, session: ConsoleSession, fields?: Record<string, string[]>) => {
    const operator = session.operator!
    const { secret, uri } = await enrolmentFor(db, vault, operator.id, ISSUER, operator.email)
    const qr = await qrSvg(uri)
    return reply
      .status(fields ? 422 : 200)
      .page('enrol.eta', { qr, secret: groupedSecret(secret), fields, account: operator.email, issuer: ISSUER })
  }
  const sessionOf = (request: FastifyRequest) => request.consoleSession!

  return async (app) => {
    app.get('/console/sign-in/code', { config: step, schema: { hide } }, async (request, reply) => {
      const session = sessionOf(request)
      if (session.stage !== 'second_factor') return reply.redirect(homeOf(session), 303)
      return reply.page('sign-in-code.eta', { email: session.operator!.email })
    })
    app.post('/console/sign-in/code', { config: step, schema: { hide, body: CodeBody } }, async (request, reply) => {
      const session = sessionOf(request)
      if (session.stage !== 'second_factor' || !session.operator) return reply.redirect(homeOf(session), 303)
      const outcome = await checkOperatorCode(db, vault, session.operator, request.ip, request.body.code, ctx.clock.now())
      if (outcome === 'ok') {
        await advanceSession(db, session, ['second_factor'], 'signed_in', hours)
        return reply.redirect('/console', 303)
      }
      // A wrong code spends the address's budget like a wrong password (docs/design.md §4).
      const tooMany = await countFailedAuthentication(ctx, request)
      if (tooMany) throw tooMany
      const page = { email: session.operator.email, failed: outcome ? 'locked' : 'code', lockMinutes: SIGN_IN_LOCK_MINUTES }
      return reply.status(outcome ? 429 : 401).page('sign-in-code.eta', page)
    })

    app.get('/console/enrol', { config: step, schema: { hide } }, async (request, reply) => {
      const session = sessionOf(request)
      if (!enrolling(session)) return reply.redirect(session.stage === 'signed_in' ? '/console/me' : homeOf(session), 303)
      return enrolPage(reply, session)
    })
    app.post('/console/enrol', { config: step, schema: { hide, body: CodeBody } }, async (request, reply) => {
      const session = sessionOf(request)
      if (!enrolling(session)) return reply.redirect(session.stage === 'signed_in' ? '/console/me' : homeOf(session), 303)
      let recoveryCodes: string[]
      try {
        ;({ recoveryCodes } = await confirmEnrolment(db, vault, 'operators', session.operator!.id, request.body.code, ctx.clock.now()))
      } catch (error) {
        // A code that is not the app's now: the same QR code again, saying why under the field.
        const refused = formRefusal(error, request.consoleLang, ['VALIDATION_ERROR'])
        if (!refused) throw error
        return enrolPage(reply, session, refused.fields)
      }
      // Signed in from here: the codes below are the last thing this sign-in shows, once.
      await advanceSession(db, session, ['enrol', 'signed_in'], 'signed_in', hours)
      request.consoleSession = { ...session, stage: 'signed_in', operator: { ...session.operator!, hasSecondFactor: true } }
      return reply.page('recovery-codes.eta', { codes: recoveryCodes })
    })
  }
}
