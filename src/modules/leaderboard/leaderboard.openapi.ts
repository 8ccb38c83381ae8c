import { operations } from '../../http/operation.js'

/** OpenAPI metadata of the leaderboard routes (each carried by its route’s schema). */
export const LEADERBOARD_DOCS = operations({
  getLeaderboardProfile: {
    codes: ['VALIDATION_ERROR'],
    description:
      'Your rank, completed transactions and points for a month in LEADERBOARD_TZ (default Asia/Jakarta): 1 point per Rp 1,000 completed, refunded parts not counted; ties share a rank. Without a completed transaction that month: zeros, ranked after every account with one (even at 0 points). Your own points and counts show a completion once the worker has relayed its event (normally milliseconds after it); your rank may lag others’ sales by at most a second.',
    returns: 'Your month on the leaderboard',
    response: { message: 'OK', data: { rank: 4, total_transactions: 37, points: 912, month: '2026-11' } },
  },
  listLeaderboard: {
    codes: ['VALIDATION_ERROR'],
    description: 'The top ten accounts of a month by points, display names masked (`Ab***ng`); ties share a rank.',
    returns: 'The month’s top ten',
    response: {
      message: 'OK',
      data: [
        { rank: 1, display_name: 'Ab***ng', total_transactions: 412, points: 18250 },
        { rank: 2, display_name: 'To***ju', total_transactions: 260, points: 9100 },
      ],
    },
  },
})
