import fs from 'node:fs'
import { bool, clean, FlagError, int, str, type Command, type Flags } from './flags.js'

// Price levels (docs/design.md §5d): levels, their rules, an item's price per level. A reseller's level is
// resellers:update --price-level.

/** A percent flag: negative (a discount level) and decimals allowed. */
const percent = (f: Flags, name: string) => {
  const v = f[name]
  if (v === undefined) return undefined
  if (v === true || !/^-?\d+(\.\d+)?$/.test(v.trim())) throw new FlagError(`--${name}: not a number`)
  return Number(v)
}
// `none` clears the promotion (both flags together, as the API takes them).
const promotion = (f: Flags) => ({
  promote_at: f['promote-at'] === 'none' ? null : int(f, 'promote-at'),
  promote_to: f['promote-to'] === 'none' ? null : str(f['promote-to']),
})
const levelFields = (f: Flags) =>
  clean({ name: str(f.name), position: int(f, 'position'), is_default: bool(f, 'default'), ...promotion(f) })

/** The rule set: a JSON file (`{ "rules": [...] }` or the array), the array inline, `--empty`, or one rule from flags. */
function ruleSet(f: Flags): object[] {
  const json = typeof f.file === 'string' ? readJson(f.file) : typeof f.rules === 'string' ? parse(f.rules, '--rules') : undefined
  if (json !== undefined) {
    const rules = Array.isArray(json) ? json : (json as { rules?: unknown }).rules
    if (!Array.isArray(rules)) throw new FlagError('the rules: a JSON array of rules, or { "rules": [...] }')
    return rules
  }
  if (f.empty === true) return []
  if (f.scope === undefined) throw new FlagError('give --file PATH, --rules JSON, --empty, or one rule as --scope … flags')
  return [
    clean({
      scope: str(f.scope),
      category_id: int(f, 'category-id'),
      brand: str(f.brand),
      item_id: int(f, 'item-id'),
      percent: percent(f, 'percent'),
      flat: int(f, 'flat'),
      round_to: int(f, 'round-to'),
    }),
  ]
}
function parse(text: string, where: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new FlagError(`${where}: not JSON (${(error as Error).message})`)
  }
}
function readJson(path: string): unknown {
  let text: string
  try {
    text = fs.readFileSync(path, 'utf8')
  } catch (error) {
    throw new FlagError(`--file: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  return parse(text, path)
}

/** `vip=9000 h2h=none`: a price set by hand per level code; none (or null): back to the level's rules. */
function levelPrices(pairs: string[]): Record<string, number | null> {
  if (pairs.length === 0) throw new FlagError('give LEVEL=PRICE (or LEVEL=none) for at least one level')
  return Object.fromEntries(
    pairs.map((pair) => {
      const m = /^([^=]+)=(none|null|\d+)$/.exec(pair.trim())
      if (!m) throw new FlagError(`${pair}: not LEVEL=PRICE or LEVEL=none`)
      return [m[1], m[2] === 'none' || m[2] === 'null' ? null : Number(m[2])]
    }),
  )
}

export const LEVEL_COMMANDS: Record<string, Command> = {
  levels: { usage: '(every price level, the default marked)', method: 'GET', path: () => '/price-levels' },
  'levels:create': {
    usage: '--code CODE --name NAME [--position N] [--default] [--promote-at N --promote-to CODE]',
    example: 'levels:create --code h2h --name "H2H partner" --position 2',
    method: 'POST',
    path: () => '/price-levels',
    body: (f) => clean({ code: str(f.code), ...levelFields(f) }),
  },
  'levels:update': {
    usage: 'CODE [--name NAME] [--position N] [--default] [--promote-at N|none] [--promote-to CODE|none]',
    example: 'levels:update member --promote-at 500 --promote-to reseller',
    method: 'PATCH',
    path: ([code]) => `/price-levels/${encodeURIComponent(code ?? '')}`,
    body: (f) => levelFields(f),
  },
  'levels:rules': {
    usage: "CODE (the level's rules)",
    example: 'levels:rules h2h',
    method: 'GET',
    path: ([code]) => `/price-levels/${encodeURIComponent(code ?? '')}/rules`,
  },
  'levels:rules-set': {
    usage:
      'CODE (--file rules.json | --rules JSON | --empty | --scope all|category|brand|item [--category-id N] [--brand B] [--item-id N] [--percent P] [--flat N] [--round-to 1|50|100|500|1000]) — replaces the whole set',
    example: 'levels:rules-set h2h --scope all --percent -2 --round-to 50',
    method: 'PUT',
    path: ([code]) => `/price-levels/${encodeURIComponent(code ?? '')}/rules`,
    body: (f) => ({ rules: ruleSet(f) }),
  },
  'items:level-prices': {
    usage: "ID (the item's price at every level)",
    example: 'items:level-prices 88',
    method: 'GET',
    path: ([id]) => `/items/${id}/level-prices`,
  },
  'items:level-prices-set': {
    usage: 'ID LEVEL=PRICE|none ... (set by hand; none: back to the level rules)',
    example: 'items:level-prices-set 88 h2h=21000 member=none',
    method: 'PUT',
    path: ([id]) => `/items/${id}/level-prices`,
    body: (_f, [, ...pairs]) => levelPrices(pairs),
  },
}
