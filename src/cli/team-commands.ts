import { clean, FlagError, str, type Command } from './flags.js'

/** The operator team's commands and the audit log (docs/design.md §11d). */
export const TEAM_COMMANDS: Record<string, Command> = {
  // Who changed what (docs/design.md §11d): the audit log, newest first; the flags are the API's filters, times ISO 8601.
  audit: {
    usage:
      '[--actor EMAIL|"admin token"] [--actor-id N] [--action OPERATION_ID] [--target-type TABLE --target-id ID] [--from TIME] [--to TIME] [--format csv] [--page N]',
    example: 'audit --target-type items --target-id 7 --from 2026-12-01T00:00:00Z',
    method: 'GET',
    path: () => '/audit',
  },
  // The operator team (docs/design.md §11d): owners invite, change, remove and reset; anyone manages their own tokens.
  me: { usage: '(who the token acts as: you, or the admin token as an owner)', method: 'GET', path: () => '/me' },
  'operators:list': { usage: '(people, roles, second factors; owners and admins)', method: 'GET', path: () => '/operators' },
  'operators:invite': {
    usage: 'EMAIL --name NAME --role viewer|support|finance|admin|owner (prints the one-time invite link)',
    example: 'operators:invite ana@tokomaju.example --name "Ana Putri" --role finance',
    method: 'POST',
    path: () => '/operators',
    body: (f, [email]) => clean({ email: email ?? str(f.email), name: str(f.name), role: str(f.role) }),
  },
  'operators:create': {
    usage: '--owner --email EMAIL --name NAME (the first owner: prints the one-time invite link)',
    example: 'operators:create --owner --email owner@tokomaju.example --name "Budi Santoso"',
    method: 'POST',
    path: () => '/operators',
    body: (f) => {
      if (f.owner !== true) throw new FlagError('--owner: operators:create makes an owner; invite anyone else with operators:invite')
      return clean({ email: str(f.email), name: str(f.name), role: 'owner' })
    },
  },
  'operators:update': {
    usage: 'ID [--name NAME] [--role viewer|support|finance|admin|owner] (a new role applies at their next call)',
    example: 'operators:update 4 --role admin',
    method: 'PATCH',
    path: ([id]) => `/operators/${id}`,
    body: (f) => clean({ name: str(f.name), role: str(f.role) }),
  },
  'operators:remove': { usage: 'ID (signed out, every token revoked)', method: 'DELETE', path: ([id]) => `/operators/${id}` },
  'operators:reset-2fa': {
    usage: 'ID (a lost phone: they enrol again at their next sign-in)',
    method: 'POST',
    path: ([id]) => `/operators/${id}/second-factor/reset`,
  },
  'operators:tokens': { usage: 'ID (their API tokens)', method: 'GET', path: ([id]) => `/operators/${id}/tokens` },
  'operators:revoke-token': {
    usage: 'ID TOKEN_ID (one of their tokens: a lost laptop)',
    method: 'DELETE',
    path: ([id, token]) => `/operators/${id}/tokens/${token}`,
  },
  'tokens:list': { usage: '(your own API tokens)', method: 'GET', path: () => '/me/tokens' },
  'tokens:create': {
    usage: '--name NAME (an op_ token of yours, printed once)',
    example: 'tokens:create --name "reports script"',
    method: 'POST',
    path: () => '/me/tokens',
    body: (f) => clean({ name: str(f.name) }),
  },
  'tokens:revoke': { usage: 'TOKEN_ID (one of your own)', method: 'DELETE', path: ([token]) => `/me/tokens/${token}` },
}
