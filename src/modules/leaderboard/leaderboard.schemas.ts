import { Type, type Static } from '@sinclair/typebox'
import { Ok } from '../../http/schemas.js'

export const MonthQuery = Type.Object({
  month: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{3}-(0[1-9]|1[0-2])$',
      description: 'YYYY-MM, a month in LEADERBOARD_TZ (default Asia/Jakarta); the current month when left out',
    }),
  ),
})
export type MonthQuery = Static<typeof MonthQuery>

const Points = Type.Integer({ minimum: 0, description: '1 per Rp 1,000 of the month’s completed amount, refunded parts not counted' })
const Rank = Type.Integer({ minimum: 1, description: '1 + the accounts with more points that month; ties share a rank' })
const OwnRank = Type.Integer({
  minimum: 1,
  description:
    '1 + the accounts with more points that month (ties share a rank); without a completion that month, 1 + every account with one. May lag others’ sales by at most a second',
})
const Transactions = Type.Integer({ minimum: 0, description: 'transactions completed in the month' })

export const Profile = Ok(
  Type.Object({
    rank: OwnRank,
    total_transactions: Transactions,
    points: Points,
    month: Type.String({ description: 'the month read, YYYY-MM' }),
  }),
)

export const Leaders = Ok(
  Type.Array(
    Type.Object({
      rank: Rank,
      display_name: Type.String({ description: 'the account name masked: first two and last two characters around ***' }),
      total_transactions: Transactions,
      points: Points,
    }),
    { description: 'the month’s top ten by points, highest first' },
  ),
)
