import { Type } from '@sinclair/typebox'
import { Nullable, RowId, StringEnum, Timestamp } from '../../http/schemas.js'
import { ROLES } from './roles.js'

const Role = StringEnum(ROLES, {
  description:
    '`viewer` reads; `support` also cares for resellers; `finance` moves money; `admin` runs the store; `owner` also runs the team',
})
const PersonName = Type.String({ minLength: 1, maxLength: 100, description: 'how the person is shown in lists and the audit log' })

/** What the API shows of an operator: never a password, invitation or second-factor secret. */
export const Operator = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  status: StringEnum(['invited', 'active', 'removed'], {
    description: '`invited` until the link is used; `removed` people keep their row for the audit log',
  }),
  totp_enabled_at: Nullable(Timestamp),
  invite_expires_at: Nullable(Timestamp),
  created_at: Timestamp,
})

export const InviteBody = Type.Object({
  email: Type.String({ format: 'email', minLength: 3, maxLength: 191, description: 'what the person signs in with' }),
  name: PersonName,
  role: Role,
})

export const Invited = Type.Composite([
  Operator,
  Type.Object({
    invite_url: Type.String({ description: 'sets the password once; shown only in this answer, lapses after 72 hours' }),
  }),
])

export const UpdateBody = Type.Object({ name: Type.Optional(PersonName), role: Type.Optional(Role) })

/** An `op_` token as lists show it: its first characters, never the token or its hash. */
export const Token = Type.Object({
  id: Type.Integer(),
  operator_id: Type.Integer(),
  name: Type.String(),
  token_prefix: Type.String({ description: 'the first characters of the token, to tell tokens apart' }),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
  revoked_at: Nullable(Timestamp),
})

export const CreateTokenBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'what the token is for: a script, a laptop' }),
})

export const CreatedToken = Type.Composite([
  Token,
  Type.Object({ token: Type.String({ description: '`op_…`: shown only in this answer; send it as `Authorization: Bearer op_…`' }) }),
])

export const Me = Type.Object({
  id: Nullable(Type.Integer({ description: 'null for the admin token' })),
  email: Nullable(Type.String()),
  name: Type.String({ description: '"admin token" for ADMIN_TOKEN' }),
  role: Role,
})

export const OperatorTokenParams = Type.Object({ id: RowId(), token: RowId({ description: 'the token’s id' }) })
export const TokenParam = Type.Object({ token: RowId({ description: 'the token’s id' }) })
