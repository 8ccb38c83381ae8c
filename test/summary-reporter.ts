import type { Reporter, RunnerTestFile } from 'vitest/node'

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] }

/** Ends the run with one plain line, `vitest: N passed, N failed, N skipped`, that CI reads. */
export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = [], errors: unknown[] = []) {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    const walk = (task: Task) => {
      if (task.type === 'test') {
        const state = task.result?.state
        if (state === 'pass') counts.passed++
        else if (state === 'fail') counts.failed++
        else counts.skipped++
      }
      task.tasks?.forEach(walk)
    }
    files.forEach((f) => {
      walk(f as unknown as Task)
      if (f.result?.state === 'fail' && !(f.tasks ?? []).length) counts.failed++
    })
    counts.failed += errors.length
    process.stdout.write(`\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`)
    if (counts.skipped > 0 && !process.env.TEST_DATABASE_URL)
      process.stdout.write(
        'skipped: the PostgreSQL-only tests (crash and fault drills, several processes on one database); ' +
          'run them with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test\n',
      )
  }
}
