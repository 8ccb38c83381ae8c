// team: the operators who run the store, their roles, second factors and API tokens (docs/design.md §11d).
export { ACCESS, AREAS, mayCall, ROLES, type Access, type Area } from './roles.js'
export { actorForToken, newOperatorToken, OPERATOR_TOKEN_PREFIX } from './tokens.service.js'
export { acceptedStep, newRecoveryCodes, newTotpSecret, otpauthUri, recoveryCodeHash, totpCode, totpStep } from './totp.js'
