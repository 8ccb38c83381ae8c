import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { OPERATOR_PASSWORD, operatorWithPassword } from '../../../test/console-team.js'
import { beginEnrolment, checkOperatorCode, checkOperatorPassword, confirmEnrolment, totpCode, totpStep } from './index.js'

const { ctx } = await createTestApp()

describe('operator sign-in failures', () => {
  it('keeps the count of wrong codes when the password is given again: ten wrong codes lock, right passwords between them or not', async () => {
    const owner = await operatorWithPassword(ctx, 'admin')
    const { secret } = await beginEnrolment(ctx.db, ctx.vault, 'operators', owner.id, 'test', owner.email)
    await confirmEnrolment(ctx.db, ctx.vault, 'operators', owner.id, totpCode(secret, totpStep(new Date())), new Date())
    const ip = '10.7.7.7'
    const now = totpStep(new Date())
    const taken = new Set([-1, 0, 1, 2].map((d) => totpCode(secret, now + d)))
    const wrong = ['000000', '111111', '222222'].find((c) => !taken.has(c))!
    for (let round = 0; round < 2; round++) {
      const signedIn = await checkOperatorPassword(ctx.db, owner.email, OPERATOR_PASSWORD, ip)
      expect(signedIn).toMatchObject({ operator: { id: owner.id, hasSecondFactor: true } })
      for (let i = 0; i < 5; i++) expect(await checkOperatorCode(ctx.db, ctx.vault, owner, ip, wrong, new Date())).toBeUndefined()
    }
    // The tenth wrong code locked the pair: the password and the right code are refused alike.
    expect(await checkOperatorPassword(ctx.db, owner.email, OPERATOR_PASSWORD, ip)).toMatchObject({ locked: expect.any(Number) })
    const right = totpCode(secret, now + 1)
    expect(await checkOperatorCode(ctx.db, ctx.vault, owner, ip, right, new Date())).toMatchObject({ locked: expect.any(Number) })
  })
})
