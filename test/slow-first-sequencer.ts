import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** A SLOW_SUITES entry as a matcher: a path, or a glob of `**` (any directories) and `*` (within one name). */
export function suiteMatcher(entry: string): RegExp {
  const pattern = entry
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${pattern}$`)
}

/**
 * Starts the listed suites first, in the list's order, then the rest as vitest would (by the last
 * run's durations, else largest file first). Without it a fresh checkout (CI) starts the small files
 * last, among them the longest (the CLI's processes, the 50,000-product import), which then ran
 * alone at the tail on one of the two workers; and the PostgreSQL run, sorted by the PGlite run's
 * durations, put the PostgreSQL-only drills last.
 */
export function slowFirstSequencer(first: readonly string[]) {
  const matchers = first.map(suiteMatcher)
  return class SlowFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files)
      const rank = (spec: TestSpecification) => {
        const file = path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join('/')
        const at = matchers.findIndex((m) => m.test(file))
        return at === -1 ? matchers.length : at
      }
      // Array.prototype.sort is stable: within a rank, vitest's own order stays.
      return sorted.sort((a, b) => rank(a) - rank(b))
    }
  }
}
