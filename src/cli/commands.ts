import { bool, clean, decimal, int, list, nullableInt, nullableStr, str, type Command, type Flags } from './flags.js'
import { CATALOG_COMMANDS } from './catalog-commands.js'
import { COMPLAINT_COMMANDS } from './complaints-commands.js'
import { ALERT_COMMANDS } from './alerts-commands.js'
import { LEVEL_COMMANDS } from './level-commands.js'
import { TEAM_COMMANDS } from './team-commands.js'

export { FlagError, parseArgs, queryOf, type Command, type Flags } from './flags.js'

const channelFields = (f: Flags) =>
  clean({
    name: str(f.name),
    type: str(f.type),
    fee_flat: int(f, 'fee-flat'),
    fee_percent: decimal(f, 'fee-percent'),
    min_amount: int(f, 'min-amount'),
    max_amount: int(f, 'max-amount'),
    active: bool(f, 'active'),
    bank: str(f.bank),
    account_number: str(f['account-number']),
    account_name: str(f['account-name']),
  })

const STORE_COMMANDS: Record<string, Command> = {
  overview: { usage: '(sales today/this month, balances held, queues)', method: 'GET', path: () => '/overview' },
  'resellers:list': { usage: '[--search TEXT] [--page N]', method: 'GET', path: () => '/resellers' },
  'resellers:mutations': {
    usage: 'ID [--type topup|purchase|refund|adjustment] [--page N]',
    method: 'GET',
    path: ([id]) => `/resellers/${id}/mutations`,
  },
  'resellers:show': { usage: 'ID', method: 'GET', path: ([id]) => `/resellers/${id}` },
  'resellers:audit': {
    usage: 'ID (balance against ledger, and what the ledger paid for)',
    method: 'GET',
    path: ([id]) => `/resellers/${id}/audit`,
  },
  'resellers:create': {
    usage: '--name NAME [--email EMAIL]',
    method: 'POST',
    path: () => '/resellers',
    body: (f) => clean({ name: str(f.name), email: str(f.email) }),
  },
  'resellers:suspend': { usage: 'ID', method: 'PATCH', path: ([id]) => `/resellers/${id}`, body: () => ({ status: 'suspended' }) },
  'resellers:activate': { usage: 'ID', method: 'PATCH', path: ([id]) => `/resellers/${id}`, body: () => ({ status: 'active' }) },
  'resellers:update': {
    usage: 'ID [--max-active-locks N|default] [--ip-allowlist 1.2.3.4,10.0.0.0/8] [--price-level CODE]',
    method: 'PATCH',
    path: ([id]) => `/resellers/${id}`,
    body: (f) =>
      clean({
        max_active_locks: nullableInt(f, 'max-active-locks', 'default'),
        ip_allowlist: f['ip-allowlist'] === undefined ? undefined : (list(f['ip-allowlist']) ?? []),
        price_level: str(f['price-level']),
      }),
  },
  'resellers:rotate-key': { usage: 'ID', method: 'POST', path: ([id]) => `/resellers/${id}/api-keys` },
  'resellers:users': { usage: 'ID (who signs in to its dashboard)', method: 'GET', path: ([id]) => `/resellers/${id}/users` },
  'resellers:invite': {
    usage: 'ID --email EMAIL [--role owner|staff]',
    example: 'resellers:invite 1 --email owner@tokomaju.example --role owner',
    method: 'POST',
    path: ([id]) => `/resellers/${id}/users`,
    body: (f) => ({ email: str(f.email), role: str(f.role) ?? 'owner' }),
  },
  'resellers:remove-user': {
    usage: 'ID USER_ID (ends every session of theirs)',
    example: 'resellers:remove-user 1 3',
    method: 'DELETE',
    path: ([id, user]) => `/resellers/${id}/users/${user}`,
  },
  'resellers:reset-user-2fa': {
    usage: 'ACCOUNT_ID USER_ID (a lost phone: two-step verification off, signed out everywhere)',
    example: 'resellers:reset-user-2fa 1 3',
    method: 'POST',
    path: ([id, user]) => `/resellers/${id}/users/${user}/second-factor/reset`,
  },
  'balance:adjust': {
    usage: 'ID --amount N --reason TEXT [--reference KEY]',
    example: 'balance:adjust 1 --amount 250000 --reason "bank transfer 27/11" --reference TRF-20261127-01',
    method: 'POST',
    path: ([id]) => `/resellers/${id}/balance`,
    body: (f) => clean({ amount: int(f, 'amount'), reason: str(f.reason), reference: str(f.reference) }),
  },
  'transactions:list': {
    usage: '[--status paid] [--account-id N] [--ref REF_ID|INVOICE] [--awaiting manual]',
    method: 'GET',
    path: () => '/transactions',
  },
  'transactions:show': { usage: 'ID', method: 'GET', path: ([id]) => `/transactions/${id}` },
  'transactions:send': {
    usage: "ID LINE_ID [--license TEXT] [--note TEXT]  (LINE_ID: a line's id in transactions:show ID, data.items[].id)",
    example: 'transactions:send 12 31 --license "VOUCHER-ABCD-1234"',
    method: 'POST',
    path: ([id, line]) => `/transactions/${id}/items/${line}/send`,
    body: (f) => clean({ product_license: str(f.license), note: str(f.note) }),
  },
  'transactions:cancel': {
    usage: 'ID --reason TEXT',
    method: 'POST',
    path: ([id]) => `/transactions/${id}/cancel`,
    body: (f) => clean({ reason: str(f.reason) }),
  },
  'channels:list': { usage: '', method: 'GET', path: () => '/channels' },
  'channels:create': {
    usage:
      '--code C --name N --type qris|va|ewallet|retail|bank_transfer [--bank B --account-number DIGITS --account-name NAME] [--fee-flat N] [--fee-percent P] [--min-amount N] [--max-amount N] [--active true|false]',
    method: 'POST',
    path: () => '/channels',
    body: (f) => clean({ code: str(f.code), ...channelFields(f) }),
  },
  'channels:update': {
    usage: 'CODE [--name N] [--fee-flat N] [--fee-percent P] [--min-amount N] [--max-amount N] [--active true|false]',
    method: 'PATCH',
    path: ([code]) => `/channels/${code}`,
    body: (f) => channelFields(f),
  },
  'channels:sync': { usage: '(imports the payment gateway’s channel list)', method: 'POST', path: () => '/channels/sync' },
  'topups:list': { usage: '[--status pending|paid|expired|failed|review] [--account-id N]', method: 'GET', path: () => '/topups' },
  'topups:pay': {
    usage: 'REFERENCE (a simulator top-up)',
    method: 'POST',
    path: ([reference]) => `/topups/${encodeURIComponent(reference)}/pay`,
  },
  'topups:resolve': {
    usage: 'REFERENCE --credit-amount N (the requested amount, another, or 0 for nothing) --reason TEXT (a top-up in review)',
    method: 'POST',
    path: ([reference]) => `/topups/${encodeURIComponent(reference)}/resolve`,
    body: (f) => clean({ credit_amount: int(f, 'credit-amount'), reason: str(f.reason) }),
  },
  'bank-mutations:list': {
    usage: '[--status unmatched|matched|duplicate|ignored] [--type CR|DB] [--account-number DIGITS] [--page N]',
    method: 'GET',
    path: () => '/bank-mutations',
  },
  'bank-mutations:match': {
    usage: 'ID --topup-reference REFERENCE [--note TEXT] (credits what arrived to that bank-transfer top-up, once)',
    method: 'POST',
    path: ([id]) => `/bank-mutations/${id}/match`,
    body: (f) => clean({ topup_reference: str(f['topup-reference']), note: str(f.note) }),
  },
  'bank-mutations:ignore': {
    usage: 'ID [--note TEXT]',
    method: 'POST',
    path: ([id]) => `/bank-mutations/${id}/ignore`,
    body: (f) => clean({ note: str(f.note) }),
  },
  'dispatches:list': {
    usage: '[--status review|queued|sending|pending|completed|failed|void] (default review)',
    method: 'GET',
    path: () => '/dispatches',
  },
  'dispatches:resolve-placed': {
    usage: 'ID (--order-id PANEL_ORDER_ID for smm | --sn SERIAL for h2h)',
    method: 'POST',
    path: ([id]) => `/dispatches/${id}/resolve`,
    body: (f) => clean({ outcome: 'placed', order_id: str(f['order-id']), sn: str(f.sn) }),
  },
  'dispatches:resolve-failed': {
    usage: 'ID [--reason TEXT]',
    method: 'POST',
    path: ([id]) => `/dispatches/${id}/resolve`,
    body: (f) => clean({ outcome: 'failed', reason: str(f.reason) }),
  },
  // Revenue, cost and margin of the lines sold (docs/design.md §11b); days in LEADERBOARD_TZ, the last 30 by default.
  'reports:margin': {
    usage: '[--from YYYY-MM-DD] [--to YYYY-MM-DD] [--group item|provider|reseller|day]',
    example: 'reports:margin --from 2026-11-01 --to 2026-11-30 --group provider',
    method: 'GET',
    path: () => '/reports/margin',
  },
  // What slipped past the floor (docs/design.md §11c): lines sold below it, bills it refused, items it keeps from selling.
  'reports:margin-watch': {
    usage: '[--from YYYY-MM-DD] [--to YYYY-MM-DD]',
    example: 'reports:margin-watch --from 2026-11-01 --to 2026-11-30',
    method: 'GET',
    path: () => '/reports/margin-watch',
  },
  'webhooks:show': { usage: 'ACCOUNT_ID', method: 'GET', path: ([id]) => `/resellers/${id}/webhook` },
  'webhooks:deliveries': {
    usage: 'ACCOUNT_ID [--status pending|retrying|delivered|failed] [--page N]',
    method: 'GET',
    path: ([id]) => `/resellers/${id}/webhook-deliveries`,
  },
  'webhooks:update': {
    // Not --url: that one names the service the CLI talks to.
    usage: 'ACCOUNT_ID [--callback-url URL|none] [--enabled true|false]',
    method: 'PUT',
    path: ([id]) => `/resellers/${id}/webhook`,
    body: (f) => clean({ callback_url: nullableStr(f, 'callback-url'), webhook_enabled: bool(f, 'enabled') }),
  },
  'webhooks:failing': {
    usage: '[--status failing|failed|retrying|pending|delivered] [--account-id N] [--page N] (every account; default failing)',
    method: 'GET',
    path: () => '/webhook-deliveries',
  },
  'webhooks:retry': {
    usage: 'ACCOUNT_ID DELIVERY_ID',
    method: 'POST',
    path: ([id, delivery]) => `/resellers/${id}/webhook-deliveries/${delivery}/retry`,
  },
}

/** The admin CLI's commands: each is one operator API call (docs/design.md §11). */
export const COMMANDS: Record<string, Command> = {
  ...STORE_COMMANDS,
  ...CATALOG_COMMANDS,
  ...LEVEL_COMMANDS,
  ...TEAM_COMMANDS,
  ...COMPLAINT_COMMANDS,
  ...ALERT_COMMANDS,
}

// Placeholders of `usage` as they read in an example call.
const SAMPLES: Record<string, string> = {
  ID: '1',
  ITEM_ID: '1',
  ACCOUNT_ID: '1',
  LINE_ID: '2',
  DELIVERY_ID: '1',
  TOKEN_ID: '12',
  EMAIL: 'ana@tokomaju.example',
  CODE: 'dgf',
  REFERENCE: 'SIM-REFERENCE',
  NAME: '"Steam Wallet"',
  N: '10',
  X: '61500',
  P: '"Steam Wallet"',
  C: 'dgf',
  TEXT: '"why, for the log"',
  URL: 'https://example.com/x',
  KEY: 'ref-1',
  'LICENSE...': 'VOUCHER-0001 VOUCHER-0002',
}

// Calls worth showing whole: a made-up one would leave out what the command is for.
const EXAMPLES: Record<string, string> = {
  'resellers:update': 'resellers:update 1 --max-active-locks 20 --ip-allowlist 203.0.113.7,10.0.0.0/8',
  'items:create':
    'items:create --product-name "Steam Wallet" --name "Steam Wallet 60.000" --price 61500 --order-process auto --category Games',
  'items:update': 'items:update 1 --price 62000 --active true',
  'products:create': 'products:create --name "Steam Wallet" --category Games',
  'products:update': 'products:update 1 --name "Steam Wallet IDR"',
  'categories:update': 'categories:update 1 --name Games --icon https://example.com/games.png',
  'providers:update': 'providers:update dgf --active false',
  'channels:create': 'channels:create --code QRIS --name QRIS --type qris --fee-flat 750 --fee-percent 0.7',
  'channels:update': 'channels:update QRIS --fee-percent 0.7 --active true',
  'webhooks:update': 'webhooks:update 1 --callback-url https://shop.example/hook --enabled true',
  'dispatches:resolve-placed': 'dispatches:resolve-placed 7 --sn 1234567890',
  'bank-mutations:match': 'bank-mutations:match 41 --topup-reference BT5F0C2A9B7E41D3C8A06B --note "sent without the code"',
  'topups:resolve': 'topups:resolve T0123456789 --credit-amount 100000 --reason "bank statement shows the full amount"',
  'providers:import': 'providers:import dgf --brand "MOBILE LEGENDS,FREE FIRE" --dry-run',
  'pricing:set': 'pricing:set --scope brand --provider dgf --brand "MOBILE LEGENDS" --percent 4 --round-to 100 --min-margin 300',
}

/** An example call of a command: its own, or its usage with the optional parts left out and placeholders filled. */
export function exampleOf(name: string, command: Command): string {
  if (command.example ?? EXAMPLES[name]) return command.example ?? EXAMPLES[name]
  const required = command.usage
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\([^)]*\)/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .map((token) => (token.includes('|') && !token.startsWith('--') ? token.split('|')[0] : (SAMPLES[token] ?? token.split('|')[0])))
  return [name, ...required].join(' ')
}
