/**
 * Which SQL file uses which, read from the database functions each one creates (CREATE OR REPLACE
 * FUNCTION name) and calls (name(…) in its statements and bodies, comments left out). repeatable.ts
 * applies the files in this order; test/module-graph.test.ts adds the same calls to the module graph.
 */
export type SqlFile = { name: string; text: string }

/** The text with its -- and /* *\/ comments blanked; quoted strings and dollar-quoted bodies kept. */
export function withoutSqlComments(text: string): string {
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i)
      i = end < 0 ? text.length : end
      out += ' '
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      i = end < 0 ? text.length : end + 2
      out += ' '
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1)
      const to = end < 0 ? text.length : end + 1
      out += text.slice(i, to)
      i = to
    } else {
      out += c
      i++
    }
  }
  return out
}

/** The database functions a SQL text creates. */
export function definedFunctions(text: string): string[] {
  return [...new Set([...withoutSqlComments(text).matchAll(/CREATE\s+OR\s+REPLACE\s+FUNCTION\s+(\w+)/gi)].map((m) => m[1]!.toLowerCase()))]
}

/** The functions of `known` a piece of SQL calls (name followed by an opening parenthesis). */
export function calledFunctions(sqlText: string, known: ReadonlySet<string>): string[] {
  const called = new Set<string>()
  for (const m of sqlText.matchAll(/\b(\w+)\s*\(/g)) {
    const name = m[1]!.toLowerCase()
    if (known.has(name)) called.add(name)
  }
  return [...called]
}

/** Each function's file, each file's own functions. Throws when two files create the same function. */
export function functionOwners(files: readonly SqlFile[]): Map<string, string> {
  const owners = new Map<string, string>()
  for (const f of files) {
    for (const fn of definedFunctions(f.text)) {
      const other = owners.get(fn)
      if (other && other !== f.name) throw new Error(`${fn}() is created by both ${other} and ${f.name}`)
      owners.set(fn, f.name)
    }
  }
  return owners
}

/** Each file's uses: the other files whose functions it calls, and which functions. */
export function sqlFileUses(files: readonly SqlFile[]): { from: string; to: string; fn: string }[] {
  const owners = functionOwners(files)
  const known = new Set(owners.keys())
  return files.flatMap((f) =>
    calledFunctions(withoutSqlComments(f.text), known)
      .map((fn) => ({ from: f.name, to: owners.get(fn)!, fn }))
      .filter((use) => use.to !== f.name),
  )
}

/**
 * The files in an order where each comes after every file whose functions it calls; among files
 * free to go next, the one listed first. Throws naming the files of a cycle.
 */
export function dependencyOrder(files: readonly SqlFile[]): string[] {
  const needs = new Map(files.map((f) => [f.name, new Set<string>()]))
  for (const use of sqlFileUses(files)) needs.get(use.from)!.add(use.to)
  const order: string[] = []
  const left = files.map((f) => f.name)
  while (left.length > 0) {
    const i = left.findIndex((name) => [...needs.get(name)!].every((n) => order.includes(n)))
    if (i < 0) throw new Error(`SQL files that call each other's functions around a loop: ${left.join(', ')}`)
    order.push(left.splice(i, 1)[0]!)
  }
  return order
}
