import { operations } from '../../http/operation.js'

const ana = {
  id: 4,
  email: 'ana@tokomaju.example',
  name: 'Ana Putri',
  role: 'finance',
  status: 'active',
  totp_enabled_at: '2026-12-01T08:12:40.000Z',
  invite_expires_at: null,
  created_at: '2026-11-30T09:00:00.000Z',
}
const token = {
  id: 12,
  operator_id: 4,
  name: 'reports script',
  token_prefix: 'op_Xb7lQy6',
  created_at: '2026-12-02T10:00:00.000Z',
  last_used_at: '2026-12-06T07:41:00.000Z',
  revoked_at: null,
}
const lastOwner = {
  INVALID_STATE: { message: 'INVALID_STATE', errors: { role: ['the last owner stays an owner: make another owner first'] } },
}
const adminTokenHasNone = {
  INVALID_STATE: {
    message: 'INVALID_STATE',
    errors: {
      Authorization: [
        'admin token has no tokens of its own: invite yourself as an operator (POST /operators), accept the invitation, then create tokens as that person',
      ],
    },
  },
}

/** OpenAPI metadata of the team routes (docs/design.md §11d), carried by each route's schema. */
export const TEAM_DOCS = operations({
  adminListOperators: {
    description:
      'The people who run the store, removed ones last (their rows stay: the audit log names them). `totp_enabled_at` is when the ' +
      'person enrolled their second factor (null: not yet, or reset). Owners and admins may read it.',
    returns: 'Every operator',
    response: { message: 'OK', data: [ana] },
  },
  adminInviteOperator: {
    description:
      'Invites a person with a role. `invite_url` opens the console page that sets their password, once, within 72 hours; no mail ' +
      'leaves the service, so hand the link over yourself. Their second factor is enrolled at the first sign-in (required for ' +
      '`owner`, `admin` and `finance`). Inviting an email still invited, or removed, issues a new link (an older one stops); ' +
      '`DUPLICATE` for an active operator. Owners only.',
    returns: 'The invited operator and the link, shown once',
    codes: ['VALIDATION_ERROR', 'DUPLICATE'],
    request: { email: 'ana@tokomaju.example', name: 'Ana Putri', role: 'finance' },
    response: {
      message: 'OK',
      data: {
        ...ana,
        status: 'invited',
        totp_enabled_at: null,
        invite_expires_at: '2026-12-03T09:00:00.000Z',
        invite_url: 'https://api.example/console/invite/3q2-bVn0h8Yt1l8w1tJ0kq9s8Zb7lQy6mX5nVb4cR2E',
      },
    },
    errorExamples: { DUPLICATE: { message: 'DUPLICATE', errors: { email: ['is an active operator already'] } } },
  },
  adminUpdateOperator: {
    description:
      'Renames a person or changes their role. A changed role applies from their next call: their tokens act with it at once, ' +
      'and their console sign-ins end. The last active owner cannot be made anything else (`INVALID_STATE`): make another ' +
      'owner first. Owners only.',
    returns: 'The operator as changed',
    codes: ['VALIDATION_ERROR', 'OPERATOR_NOT_FOUND', 'INVALID_STATE'],
    request: { role: 'admin' },
    response: { message: 'OK', data: { ...ana, role: 'admin' } },
    errorExamples: lastOwner,
  },
  adminRemoveOperator: {
    description:
      'Removes a person: in one transaction they are signed out everywhere and every token of theirs is revoked, so their next ' +
      'call is a 401. The row stays, `removed`, for the audit log; inviting the email again starts afresh. The last active ' +
      'owner cannot be removed (`INVALID_STATE`). Owners only.',
    returns: 'The operator, removed',
    codes: ['VALIDATION_ERROR', 'OPERATOR_NOT_FOUND', 'INVALID_STATE'],
    response: { message: 'OK', data: { ...ana, status: 'removed' } },
    errorExamples: lastOwner,
  },
  adminResetOperatorSecondFactor: {
    description:
      'For a lost phone: forgets the person’s second factor and recovery codes and signs them out everywhere; at their next ' +
      'sign-in they enrol a new one. Their tokens keep working (revoke them separately if the phone held one). Owners only; ' +
      'the admin token may reset an owner’s, including the only owner’s.',
    returns: 'The operator, without a second factor',
    codes: ['VALIDATION_ERROR', 'OPERATOR_NOT_FOUND'],
    response: { message: 'OK', data: { ...ana, totp_enabled_at: null } },
  },
  adminListOperatorTokens: {
    description:
      'A person’s API tokens, live ones first, newest first: their names, first characters and when each was last used ' +
      '(to the minute). Never the token itself, which only its creation showed.',
    returns: 'The operator’s tokens',
    codes: ['VALIDATION_ERROR', 'OPERATOR_NOT_FOUND'],
    response: { message: 'OK', data: [token] },
  },
  adminRevokeOperatorToken: {
    description: 'Revokes one of a person’s tokens (a lost laptop, a leaked script): refused from its next use. Owners only.',
    returns: 'The token, revoked',
    codes: ['VALIDATION_ERROR', 'OPERATOR_NOT_FOUND', 'TOKEN_NOT_FOUND'],
    response: { message: 'OK', data: { ...token, revoked_at: '2026-12-06T08:00:00.000Z' } },
  },
  adminMe: {
    description:
      'Who the bearer token acts as: the person and their role now, or for `ADMIN_TOKEN` `{ id: null, name: "admin token", ' +
      'role: "owner" }`. Any operator may call it.',
    returns: 'The caller',
    response: { message: 'OK', data: { id: 4, email: 'ana@tokomaju.example', name: 'Ana Putri', role: 'finance' } },
  },
  adminListMyTokens: {
    description:
      'Your own API tokens, live ones first. `ADMIN_TOKEN` has none of its own (`INVALID_STATE`): invite yourself as an operator.',
    returns: 'Your tokens',
    codes: ['INVALID_STATE'],
    response: { message: 'OK', data: [token] },
    errorExamples: adminTokenHasNone,
  },
  adminCreateMyToken: {
    description:
      'A new API token of yours, `op_` and 43 more characters, shown only in this answer (the service keeps its SHA-256). It ' +
      'acts as you with your role at each call: a role change applies at once, and removal or revocation refuses it. ' +
      'Send it as `Authorization: Bearer op_…`, to the API or to the CLI (`OPERATOR_TOKEN` or `--token`).',
    returns: 'The token, shown once',
    codes: ['VALIDATION_ERROR', 'INVALID_STATE'],
    request: { name: 'reports script' },
    response: {
      message: 'OK',
      data: { ...token, last_used_at: null, token: 'op_Xb7lQy6mX5nVb4cR2E3q2-bVn0h8Yt1l8w1tJ0kq9s8Z' },
    },
    errorExamples: adminTokenHasNone,
  },
  adminRevokeMyToken: {
    description: 'Revokes one of your own tokens; refused from its next use (revoking the one you call with works, and is its last call).',
    returns: 'The token, revoked',
    codes: ['VALIDATION_ERROR', 'TOKEN_NOT_FOUND', 'INVALID_STATE'],
    response: { message: 'OK', data: { ...token, revoked_at: '2026-12-06T08:00:00.000Z' } },
    errorExamples: adminTokenHasNone,
  },
})
