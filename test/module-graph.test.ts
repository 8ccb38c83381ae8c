import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// Which module imports which, read from the import and export statements of src/modules/*/
// (type-only ones too). Tests sit above every module, so their imports do not count.
const MODULES = path.resolve(import.meta.dirname, '../src/modules')
const FROM = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm

type Edge = { from: string; to: string; file: string }

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : []
  })
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

  it('reads the imports between modules', () => {
    // A parser that saw nothing would pass the cycle check below for the wrong reason.
    expect(edges.length).toBeGreaterThan(20)
    const modules = readdirSync(MODULES).filter((name) => statSync(path.join(MODULES, name)).isDirectory())
    for (const e of edges) expect(modules, `${e.file} imports from src/modules/${e.to}`).toContain(e.to)
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

  it('has no cycle', () => {
    const cycles = findCycles(edges).map((cycle) =>
      cycle
        .slice(1)
        .map((to, i) => {
          const from = cycle[i]!
          const files = [...new Set(edges.filter((e) => e.from === from && e.to === to).map((e) => e.file))]
          return `${from} → ${to} (${files.join(', ')})`
        })
        .join(', '),
    )
    expect(cycles, 'modules that import each other, directly or around a loop').toEqual([])
  })

  it('gives every module one public face, its index.ts', () => {
    const faceless = readdirSync(MODULES).filter((name) => {
      const dir = path.join(MODULES, name)
      return statSync(dir).isDirectory() && !readdirSync(dir).includes('index.ts')
    })
    expect(faceless).toEqual([])
  })
})
