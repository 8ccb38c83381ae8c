import type { Reporter, RunnerTestFile } from 'vitest/node'

type Task = { type: string; name: string; mode?: string; result?: { state?: string; errors?: unknown[] }; tasks?: Task[] }

// Why a test was skipped, read from its file and titles: a test that skips names what it needs there.
const REASONS: { reason: string; matches: (file: string, titles: string) => boolean }[] = [
  {
    reason: 'need Chromium at /usr/bin/chromium (apt-get install -y --no-install-recommends chromium)',
    matches: (file) => file.endsWith('.browser.test.ts'),
  },
  { reason: 'need python3 on PATH', matches: (_, titles) => /\bPython\b/.test(titles) },
  {
    reason: 'PostgreSQL only: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test',
    matches: (_, titles) => /PostgreSQL/.test(titles),
  },
  { reason: 'PGlite only: run without TEST_DATABASE_URL', matches: (_, titles) => /PGlite/.test(titles) },
]
const OTHER = 'skipped by the test itself (see its skipIf)'
// A suite's own errors are its hooks' (a failing test fails the suite without any).
const hookFailed = (suite: Task) => (suite.result?.errors?.length ?? 0) > 0
const NOT_RUN = 'did not run: their file or suite failed first'

/**
 * Ends the run with one plain line, `vitest: N passed, N failed, N skipped`, that CI reads, then, when
 * tests were skipped, how many for each reason and in which files.
 */
export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = [], errors: unknown[] = []) {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    // reason → file → skipped tests
    const skipped = new Map<string, Map<string, number>>()
    const skip = (reason: string, file: string) => {
      const byFile = skipped.get(reason) ?? new Map<string, number>()
      byFile.set(file, (byFile.get(file) ?? 0) + 1)
      skipped.set(reason, byFile)
      counts.skipped++
    }
    // `broken`: a hook of an enclosing suite or of the file threw, so its tests did not get to run.
    const walk = (task: Task, file: string, titles: string, broken: boolean) => {
      const named = `${titles} ${task.name}`
      if (task.type === 'test') {
        const state = task.result?.state
        if (state === 'pass') counts.passed++
        else if (state === 'fail') counts.failed++
        else if (broken || (task.mode !== 'skip' && task.mode !== 'todo')) skip(NOT_RUN, file)
        else skip(REASONS.find((r) => r.matches(file, named))?.reason ?? OTHER, file)
      }
      // A failing hook is a failure of its own, beside the tests it kept from running.
      if (task.type === 'suite' && hookFailed(task)) counts.failed++
      task.tasks?.forEach((t) => walk(t, file, named, broken || hookFailed(task)))
    }
    files.forEach((f) => {
      const file = f as unknown as Task
      if (hookFailed(file) && (f.tasks ?? []).length) counts.failed++
      ;(f.tasks as unknown as Task[]).forEach((t) => walk(t, f.name, '', hookFailed(file)))
      if (f.result?.state === 'fail' && !(f.tasks ?? []).length) counts.failed++
    })
    counts.failed += errors.length
    const lines = [`\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`]
    for (const [reason, byFile] of skipped) {
      const total = [...byFile.values()].reduce((a, b) => a + b, 0)
      const where = [...byFile].map(([file, n]) => (n > 1 ? `${file} (${n})` : file)).join(', ')
      lines.push(`skipped ${total}, ${reason}:`, `    ${where}`)
    }
    process.stdout.write(`${lines.join('\n')}\n`)
  }
}
