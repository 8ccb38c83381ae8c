import { operations } from '../../http/operation.js'

const user = { id: 3, email: 'owner@tokomaju.example', role: 'owner' }

/** OpenAPI metadata of the operator routes for dashboard users (docs/design.md §13). */
export const DASHBOARD_USER_ADMIN_DOCS = operations({
  adminInviteDashboardUser: {
    description:
      'Invites a person to the reseller’s dashboard. `invite_url` sets the password once and lapses after 72 hours; no mail ' +
      'leaves the service, so hand the link over yourself. Inviting a pending email again issues a new link (the old one stops). ' +
      'An email may be a user of several resellers, each invite making this account’s own user with its own password, so ' +
      'the answer never tells whether another account has the email; `DUPLICATE`: already a user of this account.',
    codes: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND', 'DUPLICATE'],
    request: { email: 'owner@tokomaju.example', role: 'owner' },
    response: {
      message: 'OK',
      data: {
        ...user,
        invite_url: 'https://api.example/dashboard/invite/3q2-bVn0h8Yt1l8w1tJ0kq9s8Zb7lQy6mX5nVb4cR2E',
        invite_expires_at: '2026-11-30T09:00:00.000Z',
      },
    },
  },
  adminListDashboardUsers: {
    codes: ['NOT_FOUND', 'VALIDATION_ERROR'],
    description: 'The account’s dashboard users; `invited` until the invite link set a password.',
    response: {
      message: 'OK',
      data: [{ ...user, status: 'active', second_factor: true, invite_expires_at: null, created_at: '2026-11-27T09:00:00.000Z' }],
    },
  },
  adminRemoveDashboardUser: {
    description: 'Removes a dashboard user of the account; every session of theirs ends at once.',
    codes: ['VALIDATION_ERROR', 'USER_NOT_FOUND'],
    response: { message: 'OK', data: { id: 3, removed: true } },
  },
  adminResetDashboardUserSecondFactor: {
    description:
      'Forgets a dashboard user’s two-step verification, for a person who lost their phone and their recovery codes: ' +
      'every session of theirs ends, their next sign-in takes the password alone, and an owner may turn it on again ' +
      'from their account page. A user without it is answered the same (nothing to forget). Audit-logged.',
    codes: ['VALIDATION_ERROR', 'USER_NOT_FOUND'],
    response: { message: 'OK', data: { id: 3, email: 'owner@tokomaju.example', second_factor: false } },
  },
})
