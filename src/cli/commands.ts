/** The admin CLI's commands: each is one operator API call (docs/design.md §11). */
export type Command = {
  usage: string
  /** What `<command> --help` shows as a call to copy; made from `usage` when absent (exampleOf). */
  example?: string
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  path: (args: string[]) => string
  body?: (flags: Flags, args: string[]) => object
}
export type Flags = Record<string, string | true>

/** A flag the operator got wrong: the CLI says so instead of sending NaN (as null) or a guess. */
export class FlagError extends Error {}

// Each reads `flags[name]`, so an error can name the flag as typed.
const int = (f: Flags, name: string) => {
  const v = f[name]
  if (v === undefined) return undefined
  if (v === true || !/^[-+]?\d+$/.test(v.trim())) throw new FlagError(`--${name}: not a number`)
  return Number(v)
}
const nullableInt = (f: Flags, name: string, unset: string) => (f[name] === unset ? null : int(f, name))
const str = (v: string | true | undefined) => (v === undefined || v === true ? undefined : v)
const bool = (f: Flags, name: string) => {
  const v = f[name]
  if (v === undefined) return undefined
  if (v !== true && v !== 'true' && v !== 'false') throw new FlagError(`--${name}: not true or false`)
  return v !== 'false'
}
const list = (v: string | true | undefined) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined
// `none` clears an optional text (an icon, an image, a callback URL).
const nullableStr = (f: Flags, name: string) => (f[name] === 'none' ? null : str(f[name]))
const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

const itemFields = (f: Flags) =>
  clean({
    name: str(f.name),
    sku: str(f.sku),
    price: int(f, 'price'),
    min_order: int(f, 'min-order'),
    max_order: nullableInt(f, 'max-order', 'none'),
    unlimited_stock: bool(f, 'unlimited-stock'),
    stock: int(f, 'stock'),
    provider: str(f.provider),
    provider_code: str(f['provider-code']),
    description: str(f.description),
    active: bool(f, 'active'),
  })

const decimal = (f: Flags, name: string) => {
  const v = f[name]
  if (v === undefined) return undefined
  if (v === true || !/^\d+(\.\d+)?$/.test(v.trim())) throw new FlagError(`--${name}: not a number`)
  return Number(v)
}
const channelFields = (f: Flags) =>
  clean({
    name: str(f.name),
    type: str(f.type),
    fee_flat: int(f, 'fee-flat'),
    fee_percent: decimal(f, 'fee-percent'),
    min_amount: int(f, 'min-amount'),
    max_amount: int(f, 'max-amount'),
    active: bool(f, 'active'),
  })

export const COMMANDS: Record<string, Command> = {
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
    usage: 'ID [--max-active-locks N|default] [--ip-allowlist 1.2.3.4,10.0.0.0/8]',
    method: 'PATCH',
    path: ([id]) => `/resellers/${id}`,
    body: (f) =>
      clean({
        max_active_locks: nullableInt(f, 'max-active-locks', 'default'),
        ip_allowlist: f['ip-allowlist'] === undefined ? undefined : (list(f['ip-allowlist']) ?? []),
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
  'users:reset-2fa': {
    usage: 'ACCOUNT_ID USER_ID (a lost phone: two-step verification off, signed out everywhere)',
    example: 'users:reset-2fa 1 3',
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
  'items:create': {
    usage:
      '--product-name P --name N --price X --order-process auto|h2h|smm|manual [--category C] [--stock N] [--unlimited-stock] [--min-order N] [--provider CODE --provider-code SKU]',
    method: 'POST',
    path: () => '/items',
    body: (f) =>
      clean({ ...itemFields(f), product_name: str(f['product-name']), category: str(f.category), order_process: str(f['order-process']) }),
  },
  'categories:list': { usage: '[--search TEXT] [--page N]', method: 'GET', path: () => '/categories' },
  'categories:show': { usage: 'ID', method: 'GET', path: ([id]) => `/categories/${id}` },
  'categories:create': {
    usage: '--name NAME [--icon URL]',
    method: 'POST',
    path: () => '/categories',
    body: (f) => clean({ name: str(f.name), icon: str(f.icon) }),
  },
  'categories:update': {
    usage: 'ID [--name NAME] [--icon URL|none]',
    method: 'PATCH',
    path: ([id]) => `/categories/${id}`,
    body: (f) => clean({ name: str(f.name), icon: nullableStr(f, 'icon') }),
  },
  'categories:delete': { usage: 'ID (an empty category)', method: 'DELETE', path: ([id]) => `/categories/${id}` },
  'products:list': { usage: '[--category ID|NAME] [--search TEXT] [--page N]', method: 'GET', path: () => '/products' },
  'products:show': { usage: 'ID', method: 'GET', path: ([id]) => `/products/${id}` },
  'products:items': { usage: 'ID (its items, on or off)', method: 'GET', path: ([id]) => `/products/${id}/items` },
  'products:create': {
    usage: '--name NAME (--category-id ID | --category NAME) [--image URL]',
    method: 'POST',
    path: () => '/products',
    body: (f) => clean({ name: str(f.name), category_id: int(f, 'category-id'), category: str(f.category), image: str(f.image) }),
  },
  'products:update': {
    usage: 'ID [--name NAME] [--image URL|none] [--category-id ID]',
    method: 'PATCH',
    path: ([id]) => `/products/${id}`,
    body: (f) => clean({ name: str(f.name), image: nullableStr(f, 'image'), category_id: int(f, 'category-id') }),
  },
  'products:delete': { usage: 'ID (a product without items)', method: 'DELETE', path: ([id]) => `/products/${id}` },
  'items:list': { usage: '[--search TEXT] [--category NAME] [--page N]', method: 'GET', path: () => '/items' },
  'items:show': { usage: 'ID', method: 'GET', path: ([id]) => `/items/${id}` },
  'items:update': {
    usage: 'ID [--price X] [--price-locked true|false] [--allow-loss true|false] [--stock N] [--active true|false] [--provider CODE] ...',
    method: 'PATCH',
    path: ([id]) => `/items/${id}`,
    body: (f) => clean({ ...itemFields(f), price_locked: bool(f, 'price-locked'), allow_loss: bool(f, 'allow-loss') }),
  },
  'licenses:add': {
    usage: 'ITEM_ID LICENSE... (or --file PATH, one per line)',
    method: 'POST',
    path: ([id]) => `/items/${id}/licenses`,
    body: (f, [, ...licenses]) => ({ licenses }),
  },
  'providers:list': { usage: '', method: 'GET', path: () => '/providers' },
  'providers:create': {
    usage: '--code C --kind digiflazz|smm_panel --base-url URL [--username U] [--api-key K]',
    method: 'POST',
    path: () => '/providers',
    body: (f) =>
      clean({
        code: str(f.code),
        kind: str(f.kind),
        base_url: str(f['base-url']),
        username: str(f.username),
        api_key: str(f['api-key']),
        active: bool(f, 'active'),
      }),
  },
  'providers:update': {
    usage: 'CODE [--active true|false] [--base-url URL] [--api-key K]',
    method: 'PATCH',
    path: ([code]) => `/providers/${code}`,
    body: (f) => clean({ active: bool(f, 'active'), base_url: str(f['base-url']), username: str(f.username), api_key: str(f['api-key']) }),
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
      '--code C --name N --type qris|va|ewallet|retail [--fee-flat N] [--fee-percent P] [--min-amount N] [--max-amount N] [--active true|false]',
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
  'providers:balance': { usage: 'CODE (SMM panels)', method: 'GET', path: ([code]) => `/providers/${code}/balance` },
  // A supplier's price list (docs/design.md §11b): read now (or the last read, within SUPPLIER_SYNC_MINUTES), its products, its changes.
  'providers:sync': { usage: 'CODE', method: 'POST', path: ([code]) => `/providers/${code}/sync` },
  'providers:sync-force': {
    usage: 'CODE (asks the provider even after a recent sync)',
    method: 'POST',
    path: ([code]) => `/providers/${code}/sync?force=true`,
  },
  'providers:products': {
    usage: 'CODE [--status active|inactive|gone] [--category C] [--brand B] [--search TEXT] [--page N]',
    method: 'GET',
    path: ([code]) => `/providers/${code}/products`,
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
  'providers:changes': {
    usage: 'CODE [--kind new|price|status|gone|back|held] [--page N]',
    method: 'GET',
    path: ([code]) => `/providers/${code}/changes`,
  },
  // Prices a sync held instead of applying (docs/design.md §11c): approve applies one and reprices its items, reject ignores it.
  'providers:held': {
    usage: 'CODE [--status pending|approved|rejected|superseded] [--page N]',
    example: 'providers:held digiflazz --status pending',
    method: 'GET',
    path: ([code]) => `/providers/${code}/held`,
  },
  'providers:held-approve': {
    usage: 'CODE ID (the id from providers:held)',
    example: 'providers:held-approve digiflazz 912',
    method: 'POST',
    path: ([code, id]) => `/providers/${code}/held/${id}/approve`,
  },
  'providers:held-reject': {
    usage: 'CODE ID (the id from providers:held)',
    example: 'providers:held-reject digiflazz 912',
    method: 'POST',
    path: ([code, id]) => `/providers/${code}/held/${id}/reject`,
  },
  // Items from a supplier's list, and the pricing rules that price them from its costs (docs/design.md §11b).
  'providers:import': {
    usage: 'CODE [--category C,…] [--brand B,…] [--type T,…] [--codes a,b] [--dry-run] (at least one of category, brand, type, codes)',
    method: 'POST',
    path: ([code]) => `/providers/${code}/import`,
    body: (f) =>
      clean({
        categories: list(f.category),
        brands: list(f.brand),
        types: list(f.type),
        codes: list(f.codes),
        dry_run: bool(f, 'dry-run'),
      }),
  },
  'pricing:rules': { usage: '(every pricing rule)', method: 'GET', path: () => '/pricing-rules' },
  'pricing:set': {
    usage:
      '--scope provider|category|brand|item [--provider C] [--category C] [--brand B] [--item-id N] --percent N [--flat N] [--round-to 1|50|100|500|1000] [--min-margin N]',
    method: 'PUT',
    path: () => '/pricing-rules',
    body: (f) =>
      clean({
        scope: str(f.scope),
        provider: str(f.provider),
        category: str(f.category),
        brand: str(f.brand),
        item_id: int(f, 'item-id'),
        percent: decimal(f, 'percent'),
        flat: int(f, 'flat'),
        round_to: int(f, 'round-to'),
        min_margin: int(f, 'min-margin'),
      }),
  },
  'pricing:delete': { usage: 'ID', method: 'DELETE', path: ([id]) => `/pricing-rules/${id}` },
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

/** `a b --flag value --switch` → positional args and flags; GET flags become the query string. */
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

export function parseArgs(argv: string[]): { name: string; args: string[]; flags: Flags } {
  const [name = 'help', ...rest] = argv
  const args: string[] = []
  const flags: Flags = {}
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]
    if (!token.startsWith('--')) args.push(token)
    else if (rest[i + 1] === undefined || rest[i + 1].startsWith('--')) flags[token.slice(2)] = true
    else flags[token.slice(2)] = rest[++i]
  }
  return { name, args, flags }
}
