// team: the operators who run the store, their roles, second factors and API tokens (docs/design.md §11d).
export { ACCESS, AREAS, mayCall, ROLES, type Access, type Area } from './roles.js'
export {
  acceptInvitation,
  createFirstOwner,
  findInvitation,
  getOperator,
  hasOperators,
  INVITE_HOURS,
  inviteOperator,
  listOperators,
  rememberConsoleLanguage,
  removeOperator,
  resetOperatorSecondFactor,
  updateOperator,
  type OperatorView,
} from './operators.service.js'
export {
  beginEnrolment,
  checkSecondFactor,
  confirmEnrolment,
  hasSecondFactor,
  pendingEnrolment,
  resetSecondFactor,
  SECOND_FACTOR_ROLES,
  type SecondFactorTable,
} from './second-factor.service.js'
export {
  actorForToken,
  createOperatorToken,
  listOperatorTokens,
  newOperatorToken,
  OPERATOR_TOKEN_PREFIX,
  revokeOperatorToken,
  revokeTokenOfOperator,
  tokensOfOperator,
} from './tokens.service.js'
export { createMyToken, myTokens, revokeMyToken, whoAmI } from './self.service.js'
export { operatorInviteUrl, teamRoutes } from './team.routes.js'
export { acceptedStep, groupedSecret, newRecoveryCodes, newTotpSecret, otpauthUri, recoveryCodeHash, totpCode, totpStep } from './totp.js'
export {
  checkOperatorCode,
  checkOperatorPassword,
  enrolmentFor,
  requiresSecondFactor,
  stageAfterPassword,
  type SignInOperator,
} from './sign-in.service.js'
export {
  countFailedSignIn,
  forgetFailedSignIns,
  RESELLER_SIGN_IN_FAILURES,
  SIGN_IN_FAILURES_BEFORE_LOCK,
  SIGN_IN_LOCK_MINUTES,
  signInLockSeconds,
  type SignInFailures,
} from './sign-in-lock.service.js'
export { qrSvg } from './qr-code.js'
