/** What every admin CLI command is made of: its call, and the flags it reads (typed, with the flag named in errors). */
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
export const int = (f: Flags, name: string) => {
  const v = f[name]
  if (v === undefined) return undefined
  if (v === true || !/^[-+]?\d+$/.test(v.trim())) throw new FlagError(`--${name}: not a number`)
  return Number(v)
}
export const nullableInt = (f: Flags, name: string, unset: string) => (f[name] === unset ? null : int(f, name))
export const str = (v: string | true | undefined) => (v === undefined || v === true ? undefined : v)
export const bool = (f: Flags, name: string) => {
  const v = f[name]
  if (v === undefined) return undefined
  if (v !== true && v !== 'true' && v !== 'false') throw new FlagError(`--${name}: not true or false`)
  return v !== 'false'
}
export const list = (v: string | true | undefined) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined
// `none` clears an optional text (an icon, an image, a callback URL).
export const nullableStr = (f: Flags, name: string) => (f[name] === 'none' ? null : str(f[name]))
export const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

export const decimal = (f: Flags, name: string) => {
  const v = f[name]
  if (v === undefined) return undefined
  if (v === true || !/^\d+(\.\d+)?$/.test(v.trim())) throw new FlagError(`--${name}: not a number`)
  return Number(v)
}

/** A GET's flags as its query string (`--target-type` → `target_type`); other methods send a body instead. */
export function queryOf(command: Command, flags: Flags): string {
  if (command.method !== 'GET') return ''
  return new URLSearchParams(Object.entries(flags).map(([k, v]) => [k.replaceAll('-', '_'), String(v)])).toString()
}

/** `a b --flag value --switch` → positional args and flags; GET flags become the query string. */
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
