import { operations } from '../../http/operation.js'

/** OpenAPI metadata of the balance routes (each carried by its route’s schema). */
export const LEDGER_DOCS = operations({
  getBalance: {
    description: 'Your balance in Rupiah.',
    returns: 'The balance',
    response: { message: 'OK', data: { balance: 975000 } },
  },
  listBalanceMutations: {
    codes: ['VALIDATION_ERROR'],
    description:
      'The ledger of your balance, newest first: every debit and credit with the balance before and after. Filter by `direction` and `type`.',
    returns: 'A page of ledger entries',
    response: {
      message: 'OK',
      data: [
        {
          id: 311,
          invoice: 'INV20261122K7Q2M9XA',
          direction: 'debit',
          type: 'purchase',
          amount: 25000,
          balance_before: 1000000,
          balance_after: 975000,
          description: 'Purchase INV20261122K7Q2M9XA',
          created_at: '2026-11-22T10:15:00.000Z',
        },
      ],
      meta: { page: 1, per_page: 20, total: 1, last_page: 1, total_capped: false, next_cursor: null },
    },
  },
})
