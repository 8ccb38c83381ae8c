import { operations } from '../../http/operation.js'

const mutation = {
  id: 41,
  mutation_id: 'mt_8Kq2ZxYp3V',
  source: 'moota',
  bank_id: 'VLagzqBj42D',
  account_number: '1234567890',
  amount: 100123,
  type: 'CR',
  description: 'TRSF E-BANKING CR 0612/FTSCY/WS95051 100123.00 BUDI SANTOSO',
  date: '2026-12-06 10:21:44',
  status: 'matched',
  topup_id: 57,
  topup_reference: 'BT5F0C2A9B7E41D3C8A06B',
  topup_account_id: 12,
  matched_by: 'push',
  matched_at: '2026-12-06T03:21:47.000Z',
  credited_amount: 100123,
  note: null,
  created_at: '2026-12-06T03:21:47.000Z',
  updated_at: '2026-12-06T03:21:47.000Z',
}
const counts = { matched: 1, unmatched: 1, duplicate: 0, repeated: 0 }

/** OpenAPI metadata of Moota's push and the operator's bank-mutation routes (docs/design.md §7b). */
export const BANK_DOCS = operations({
  mootaPush: {
    description:
      'Called by Moota, not by resellers: a JSON array of mutations (a single object is taken as an array of one), `Signature` the lower-case hex HMAC-SHA256 of the raw body under MOOTA_WEBHOOK_SECRET. Each mutation is stored once by `mutation_id`; a `CR` whose amount is the `total` of exactly one bank-transfer top-up to that account number (pending, or expired within 7 days) credits it once. Anything else waits for an operator.',
    returns: 'What became of each mutation',
    codes: ['INVALID_JSON', 'BAD_REQUEST', 'VALIDATION_ERROR', 'INVALID_SIGNATURE', 'PAYLOAD_TOO_LARGE', 'TOO_MANY_REQUESTS'],
    request: [
      {
        mutation_id: 'mt_8Kq2ZxYp3V',
        bank_id: 'VLagzqBj42D',
        account_number: '1234567890',
        amount: 100123,
        type: 'CR',
        description: 'TRSF E-BANKING CR 0612/FTSCY/WS95051 100123.00 BUDI SANTOSO',
        date: '2026-12-06 10:21:44',
      },
    ],
    response: { message: 'OK', data: { ...counts, rejected: 0 } },
  },
  adminListBankMutations: {
    codes: ['VALIDATION_ERROR'],
    description:
      'Mutations of the bank_transfer channels’ accounts, as Moota pushed them or a statement brought them: `unmatched` first, then newest first. `duplicate`: its amount is the total of a top-up another mutation already credited (the same transfer seen twice, or paid twice).',
    response: { message: 'OK', data: [mutation], meta: { page: 1, per_page: 50, total: 1, last_page: 1 } },
  },
  adminMatchBankMutation: {
    description:
      'Matches a credit to a bank-transfer top-up by hand: the mutation’s amount (less the channel’s fee, if any) is credited once, and a difference from the top-up’s total is noted. A mutation matched before, a debit, or a top-up credited before is 409 INVALID_STATE and changes nothing.',
    codes: ['VALIDATION_ERROR', 'NOT_FOUND', 'TOPUP_NOT_FOUND', 'INVALID_STATE'],
    request: { topup_reference: 'BT5F0C2A9B7E41D3C8A06B', note: 'payer sent 100,000 without the code; confirmed by WhatsApp' },
    response: { message: 'OK', data: { ...mutation, matched_by: 'operator', amount: 100000, credited_amount: 100000 } },
    errorExamples: { INVALID_STATE: { message: 'INVALID_STATE', errors: { topup_reference: ['is paid'] } } },
  },
  adminIgnoreBankMutation: {
    description: 'Sets an unmatched (or duplicate) mutation aside: it credits nothing and leaves the queue. It can still be matched later.',
    codes: ['VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE'],
    request: { note: 'interest credited by the bank' },
    response: {
      message: 'OK',
      data: {
        ...mutation,
        status: 'ignored',
        topup_id: null,
        topup_reference: null,
        topup_account_id: null,
        matched_by: null,
        matched_at: null,
        credited_amount: null,
        note: 'interest credited by the bank',
      },
    },
  },
  adminImportBankStatement: {
    description:
      'A bank statement of a bank_transfer channel’s account (`text/csv`, or JSON `{ "csv": "…" }`; up to 10 MiB): header row `date,description,amount,type[,mutation_id]`, `type` CR or DB, amounts in whole Rupiah. Each row goes through the same matcher as Moota’s push. A row without `mutation_id` is identified by its fields and its place among identical rows, so importing the same statement again stores and credits nothing more. A bad row refuses the whole file (422 naming the line).',
    codes: ['VALIDATION_ERROR', 'CHANNEL_NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
    request: { csv: 'date,description,amount,type\n2026-12-06,TRSF E-BANKING CR BUDI,100123,CR\n2026-12-06,BIAYA ADM,6500,DB\n' },
    response: { message: 'OK', data: { rows: 2, ...counts, repeated: 0 } },
  },
})
