import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// The repository stands on its own: every `§N` in the code and the docs names a section of
// docs/design.md, nothing points at the design contract outside the checkout any more, and every
// relative link of README.md and docs/*.md reaches a file (and, with `#anchor`, a heading).
const ROOT = path.resolve(import.meta.dirname, '..')
const DESIGN = 'docs/design.md'
const SCANNED = ['src', 'test', 'bench', 'packages', 'docs', 'README.md']
const SKIP_DIRS = new Set(['node_modules', 'dist', 'results', '.git'])
const TEXT = /\.(ts|js|mjs|cjs|sql|json|md|ya?ml|sh|html|css)$/
// Spelled in parts, so that this file does not name what it forbids.
const OUTSIDE_CONTRACT = ['DESIGN' + '.md', 'DESIGN' + ' §', 'DESIGN' + "'s"]
const SHARED = '../' + 'shared'
// The bench's fixed reference script measures the machine and deliberately lives beside the checkout
// (docs/performance.md); it is the one path outside the checkout left.
const SHARED_ALLOWED = SHARED + '/bench-reference/'

function files(rel: string): string[] {
  const full = path.join(ROOT, rel)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return TEXT.test(rel) ? [rel] : []
  return readdirSync(full).flatMap((name) => (SKIP_DIRS.has(name) ? [] : files(path.join(rel, name))))
}

const scanned = SCANNED.flatMap(files)
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8')

/** Markdown without its fenced code blocks, where neither headings nor links count. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
}

/** GitHub's anchor for a heading: the rendered text, lower-case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/(^|\s)[*_]+|[*_]+(?=\s|$|[.,:;)])/g, '$1')
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const m of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}

/** The sections of docs/design.md: `## 11c. …` or `### 11c. …` is section 11c. */
function sections(markdown: string): Set<string> {
  return new Set([...prose(markdown).matchAll(/^#{2,3}\s+(\d+[a-z]?)\.\s/gm)].map((m) => m[1]!))
}

/** Every `§N` of a text that names no section, as `file:line §N`. */
function missingSections(rel: string, text: string, known: Set<string>): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => [...line.matchAll(/§(\d+[a-z]?)/g)].filter((m) => !known.has(m[1]!)).map((m) => `${rel}:${i + 1} §${m[1]}`))
}

const design = read(DESIGN)
const known = sections(design)

describe('docs/design.md and the references to it', () => {
  it('has every section the references use, numbered as they are', () => {
    for (const n of ['1', '5', '5b', '5c', '5d', '7b', '11', '11b', '11c', '11d', '11e', '12', '13', '14']) expect(known).toContain(n)
  })

  it('flags a reference to a section that does not exist', () => {
    const missing = '§' + '99'
    expect(missingSections('x.ts', `// the floor (docs/design.md §11c, ${missing})`, known)).toEqual([`x.ts:1 ${missing}`])
  })

  it('resolves every § reference in src, test, bench, packages, docs and README.md', () => {
    expect(scanned.length).toBeGreaterThan(100)
    expect(scanned.flatMap((rel) => missingSections(rel, read(rel), known))).toEqual([])
  })

  it('names docs/design.md on every line outside it that cites a section', () => {
    const unnamed = scanned
      .filter((rel) => rel !== DESIGN)
      .flatMap((rel) =>
        read(rel)
          .split('\n')
          .flatMap((line, i) => (/§\d/.test(line) && !/design(\.md)? §\d/.test(line) ? [`${rel}:${i + 1}`] : [])),
      )
    expect(unnamed).toEqual([])
  })

  it('points nowhere outside the repository for the design', () => {
    const outside = scanned.flatMap((rel) => {
      const text = read(rel)
      const found = OUTSIDE_CONTRACT.filter((s) => text.includes(s))
      if (text.split(SHARED_ALLOWED).join('').includes(SHARED)) found.push(SHARED)
      return found.map((s) => `${rel}: ${s}`)
    })
    expect(outside).toEqual([])
  })

  it('has every relative link of README.md and docs/*.md reach a file and its heading', () => {
    const markdown = [
      'README.md',
      ...readdirSync(path.join(ROOT, 'docs'))
        .filter((n) => n.endsWith('.md'))
        .map((n) => `docs/${n}`),
    ]
    const broken: string[] = []
    for (const rel of markdown) {
      const text = prose(read(rel)).replace(/`[^`\n]*`/g, '')
      for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const link = m[1]!
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue
        const [target, anchor] = link.split('#') as [string, string | undefined]
        const file = target === '' ? rel : path.posix.normalize(path.posix.join(path.posix.dirname(rel), target))
        if (!existsSync(path.join(ROOT, file))) {
          broken.push(`${rel}: ${link} (no ${file})`)
          continue
        }
        if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(decodeURIComponent(anchor))) {
          broken.push(`${rel}: ${link} (no heading #${anchor} in ${file})`)
        }
      }
    }
    expect(broken).toEqual([])
  })
})
