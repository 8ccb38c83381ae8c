import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { countFailedAuthentication } from '../../http/auth.js'
import { Form } from '../../http/web-pages.js'
import { sendBack } from './refusals.js'
import { TEXTS } from './texts.js'
import { ownerOnly } from './roles.js'
import { SIGN_IN_LOCK_MINUTES } from '../team/index.js'
import { confirmTwoStep, pendingTwoStep, startTwoStep, turnOffTwoStep, twoStepOf } from './two-step.service.js'

const hide = true
const CodeForm = Form({ code: Type.String({ maxLength: 100 }) })
const OffForm = Form({ code_or_password: Type.String({ maxLength: 500 }) })

/**
 * An owner's two-step verification, from the account page (/dashboard/password): turn on (a QR
 * code and the secret typed out, a first code, then ten recovery codes shown once), turn off
 * (a current code or the password). Staff have no such section and get the 403 page here.
 */
export function twoStepPages(ctx: AppContext): FastifyPluginAsyncTypebox {
  const { db, vault } = ctx
  const publicUrl = ctx.config.publicUrl
  return async (app) => {
    app.addHook('preHandler', ownerOnly)
    app.post('/dashboard/two-step', { schema: { hide } }, async (request, reply) => {
      await startTwoStep(db, vault, request.dashboardUser.user_id, publicUrl)
      return reply.redirect('/dashboard/two-step', 303)
    })
    app.get('/dashboard/two-step', { schema: { hide } }, async (request, reply) => {
      const enrolment = await pendingTwoStep(db, vault, request.dashboardUser.user_id, publicUrl)
      if (!enrolment) return reply.redirect('/dashboard/password', 303)
      return reply.screen('two-step.eta', { enrolment })
    })
    app.post('/dashboard/two-step/confirm', { schema: { hide, body: CodeForm } }, async (request, reply) => {
      const userId = request.dashboardUser.user_id
      const recoveryCodes = await confirmTwoStep(db, vault, userId, request.body.code, ctx.clock.now())
      if (recoveryCodes) return reply.screen('two-step.eta', { recoveryCodes })
      const enrolment = await pendingTwoStep(db, vault, userId, publicUrl)
      if (!enrolment) return reply.redirect('/dashboard/password', 303)
      return sendBack(
        reply,
        'two-step.eta',
        { enrolment },
        { values: {}, errors: { code: TEXTS[request.dashboardLang].twoStep.wrongCode } },
      )
    })
    app.post('/dashboard/two-step/off', { schema: { hide, body: OffForm } }, async (request, reply) => {
      const userId = request.dashboardUser.user_id
      const outcome = await turnOffTwoStep(db, vault, userId, request.body.code_or_password, ctx.clock.now())
      if ('off' in outcome) return reply.redirect('/dashboard/password?done=two-step-off', 303)
      // Counted against the address too, like a wrong code at sign-in.
      const tooMany = await countFailedAuthentication(ctx, request)
      if (tooMany) throw tooMany
      const twoStep = await twoStepOf(db, userId)
      const t = TEXTS[request.dashboardLang]
      // The section's own form state (offForm): the password form above it stays as it was.
      const offForm = (sentence: string) => ({ values: {}, errors: { code_or_password: sentence } })
      if ('locked' in outcome) {
        return reply
          .status(429)
          .header('retry-after', String(outcome.locked))
          .screen('password.eta', { twoStep, offForm: offForm(t.signIn.locked(SIGN_IN_LOCK_MINUTES)) })
      }
      return reply.status(422).screen('password.eta', { twoStep, offForm: offForm(t.twoStep.wrongCodeOrPassword) })
    })
  }
}
