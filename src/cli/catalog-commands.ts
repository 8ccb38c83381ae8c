import { bool, clean, decimal, int, list, nullableInt, nullableStr, str, type Command, type Flags } from './flags.js'

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

/** The catalog's commands: categories, products, items, licenses, providers and their lists, pricing rules. */
export const CATALOG_COMMANDS: Record<string, Command> = {
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
    usage: 'CODE [--active true|false] [--base-url URL] [--api-key K] [--alert-below RUPIAH|none] [--alert-hours H|none]',
    method: 'PATCH',
    path: ([code]) => `/providers/${code}`,
    body: (f) =>
      clean({
        active: bool(f, 'active'),
        base_url: str(f['base-url']),
        username: str(f.username),
        api_key: str(f['api-key']),
        // The low-balance alert's thresholds (docs/design.md §11e); none switches one off.
        balance_alert_below: nullableInt(f, 'alert-below', 'none'),
        balance_alert_hours: f['alert-hours'] === 'none' ? null : decimal(f, 'alert-hours'),
      }),
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
}
