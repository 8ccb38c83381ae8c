import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { repeatables, sqlFiles } from '../src/db/repeatable.js'
import { calledFunctions, dependencyOrder, functionOwners, sqlFileUses, type SqlFile } from '../src/db/sql-graph.js'

// Which module uses which: the import and export statements of src/modules/*/ (type-only ones
// too), and the database functions a module calls (in its .sql files, and in the sql`…` templates
// and sql.raw('…') of its TypeScript) that another module's .sql file creates. Tests sit above
// every module, so their imports do not count.
const SRC = path.resolve(import.meta.dirname, '../src')
const MODULES = path.join(SRC, 'modules')
const FROM = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm
// A sql`…` template (sql<T>`…` too) or a sql.raw() of a string literal.
const SQL_IN_TS = /\bsql(?:<[^`;]*?>)?`((?:[^`\\]|\\.)*)`|\bsql\.raw\((['"`])((?:(?!\2)[^\\]|\\.)*)\2/g

type Edge = { from: string; to: string; file: string }

function sourceFiles(dir: string, ext = '.ts'): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return sourceFiles(full, ext)
    return name.endsWith(ext) && !name.endsWith('.test.ts') ? [full] : []
  })
}

/** The module of a file under src/ ('modules/orders/cart-line.sql' → orders), or undefined outside modules/. */
const moduleOf = (name: string) => (name.startsWith('modules/') ? name.split('/')[1] : undefined)

const sqlTexts: SqlFile[] = sqlFiles.map((f) => ({ name: f.name, text: readFileSync(f.url, 'utf8') }))

/** Module → module edges of database function calls, `file` naming the caller and the function. */
function functionEdges(): Edge[] {
  const edges: Edge[] = []
  const add = (fromFile: string, toFile: string, fn: string) => {
    const from = moduleOf(fromFile)
    const to = moduleOf(toFile)
    if (from && to && from !== to) edges.push({ from, to, file: `${fromFile.replace(/^modules\//, '')}: ${fn}()` })
  }
  for (const use of sqlFileUses(sqlTexts)) add(use.from, use.to, use.fn)
  const owners = functionOwners(sqlTexts)
  const known = new Set(owners.keys())
  for (const file of sourceFiles(MODULES)) {
    const name = path.relative(SRC, file).split(path.sep).join('/')
    for (const m of readFileSync(file, 'utf8').matchAll(SQL_IN_TS)) {
      for (const fn of calledFunctions(m[1] ?? m[3]!, known)) add(name, owners.get(fn)!, fn)
    }
  }
  return edges
}

function moduleEdges(): Edge[] {
  const edges: Edge[] = []
  for (const file of sourceFiles(MODULES)) {
    const from = path.relative(MODULES, file).split(path.sep)[0]!
    for (const m of readFileSync(file, 'utf8').matchAll(FROM)) {
      const specifier = m[1] ?? m[2]!
      if (!specifier.startsWith('.')) continue
      const target = path.relative(MODULES, path.resolve(path.dirname(file), specifier))
      const to = target.split(path.sep)[0]!
      if (target.startsWith('..') || to === from) continue
      edges.push({ from, to, file: path.relative(MODULES, file) })
    }
  }
  return edges
}

/** Every cycle's modules, each found once, as a path that returns to its start (a → b → a). */
function findCycles(edges: Pick<Edge, 'from' | 'to'>[]): string[][] {
  const next = new Map<string, Set<string>>()
  for (const e of edges) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to))
  const cycles = new Map<string, string[]>()
  const walk = (start: string, at: string, trail: string[]) => {
    for (const to of next.get(at) ?? []) {
      if (to === start) {
        const key = [...trail].sort().join(' ')
        if (!cycles.has(key)) cycles.set(key, [...trail, start])
      } else if (!trail.includes(to) && to > start) {
        walk(start, to, [...trail, to])
      }
    }
  }
  for (const start of [...next.keys()].sort()) walk(start, start, [start])
  return [...cycles.values()]
}

describe('the module graph', () => {
  const edges = moduleEdges()
  const calls = functionEdges()

  it('reads the imports between modules', () => {
    // A parser that saw nothing would pass the cycle check below for the wrong reason.
    expect(edges.length).toBeGreaterThan(20)
    const modules = readdirSync(MODULES).filter((name) => statSync(path.join(MODULES, name)).isDirectory())
    for (const e of edges) expect(modules, `${e.file} imports from src/modules/${e.to}`).toContain(e.to)
  })

  it('reads the database functions each module creates and which other modules call them', () => {
    expect(calls.length).toBeGreaterThan(10)
    expect(calls).toContainEqual({ from: 'locks', to: 'catalog', file: 'locks/locks.sql: refuse_unsellable()' })
    // …and in the SQL of the TypeScript.
    expect(calls).toContainEqual({ from: 'checkout', to: 'orders', file: 'checkout/settlement.ts: close_upstream_line()' })
  })

  it('reads calls past comments, and names SQL files that call each other', () => {
    const files = [
      {
        name: 'modules/a/a.sql',
        text: '-- b_fn() here is a comment\nCREATE OR REPLACE FUNCTION a_fn() RETURNS int LANGUAGE sql AS $$ SELECT b_fn() $$;',
      },
      {
        name: 'modules/b/b.sql',
        text: 'CREATE OR REPLACE FUNCTION b_fn() RETURNS int LANGUAGE plpgsql AS $$ BEGIN /* a_fn() */ RETURN 1; END $$;',
      },
    ]
    expect(sqlFileUses(files)).toEqual([{ from: 'modules/a/a.sql', to: 'modules/b/b.sql', fn: 'b_fn' }])
    expect(dependencyOrder(files)).toEqual(['modules/b/b.sql', 'modules/a/a.sql'])
    files[1]!.text += '\nCREATE OR REPLACE FUNCTION b_too() RETURNS int LANGUAGE sql AS $$ SELECT a_fn() $$;'
    expect(() => dependencyOrder(files)).toThrow('around a loop: modules/a/a.sql, modules/b/b.sql')
  })

  it('applies the SQL files in an order where each comes after the files whose functions it calls', () => {
    const onDisk = sourceFiles(SRC, '.sql').map((f) => path.relative(SRC, f).split(path.sep).join('/'))
    expect(sqlFiles.map((f) => f.name).sort(), 'every .sql file under src/ is in src/db/repeatable.ts').toEqual(onDisk.sort())
    const order = repeatables.map((f) => f.name)
    const uses = sqlFileUses(sqlTexts)
    expect(uses.length).toBeGreaterThan(10)
    for (const use of uses) {
      expect(order.indexOf(use.to), `${use.from} calls ${use.fn}() of ${use.to}`).toBeLessThan(order.indexOf(use.from))
    }
  })

  it('names a cycle when there is one', () => {
    const found = findCycles([
      { from: 'orders', to: 'topups' },
      { from: 'topups', to: 'refids' },
      { from: 'topups', to: 'orders' },
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
    ])
    expect(found).toEqual([
      ['a', 'b', 'c', 'a'],
      ['orders', 'topups', 'orders'],
    ])
  })

  it('has no cycle, counting calls of database functions as imports', () => {
    const all = [...edges, ...calls]
    const cycles = findCycles(all).map((cycle) =>
      cycle
        .slice(1)
        .map((to, i) => {
          const from = cycle[i]!
          const files = [...new Set(all.filter((e) => e.from === from && e.to === to).map((e) => e.file))]
          return `${from} → ${to} (${files.join(', ')})`
        })
        .join(', '),
    )
    expect(cycles, 'modules that import (or call the database functions of) each other, directly or around a loop').toEqual([])
  })

  it('gives every module one public face, its index.ts', () => {
    const faceless = readdirSync(MODULES).filter((name) => {
      const dir = path.join(MODULES, name)
      return statSync(dir).isDirectory() && !readdirSync(dir).includes('index.ts')
    })
    expect(faceless).toEqual([])
  })
})
