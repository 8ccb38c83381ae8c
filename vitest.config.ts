import { configDefaults, defineConfig } from 'vitest/config'
import { slowFirstSequencer } from './test/slow-first-sequencer.js'

/**
 * What `npm run test:fast` leaves out (TEST_FAST=1): the suites that start service processes or a
 * browser, the fuzzer and the drills. CI (`bash .ci/run`) and `npm test` run everything.
 * test/slow-suites.test.ts fails on an entry that names no file, and on a suite starting processes or a browser that is not here.
 */
export const SLOW_SUITES = [
  // In the order they start (slowFirstSequencer), longest first on either database, so that none is
  // left running alone at the end: the CLI's and the service's processes, the fuzzer, the
  // 50,000-product import (5,000 on PGlite), the crash and fault drills (PostgreSQL only), browsers.
  'test/cli.test.ts',
  'test/fuzz.test.ts',
  'src/modules/suppliers/bulk-import.test.ts',
  'test/startup.test.ts',
  'test/roles.test.ts',
  'test/faults.test.ts',
  'src/modules/admin/demo.test.ts',
  'test/webhook-workers.test.ts',
  'test/supplier-sync-crash.test.ts',
  'test/deploy-files.test.ts',
  'test/readme-walkthrough.test.ts',
  'test/webhook-logs.test.ts',
  'test/upstream-drill.test.ts',
  'test/crash.test.ts',
  'test/fulfilment-crash.test.ts',
  '**/*.browser.test.ts',
  'src/http/metrics.test.ts',
  'test/redis-down.test.ts',
  'test/pgbouncer.test.ts',
]

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(process.env.TEST_FAST === '1' ? SLOW_SUITES : [])],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Two cores: two workers, each test file on its own database.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    sequence: { sequencer: slowFirstSequencer(SLOW_SUITES) },
    reporters: ['default', './test/summary-reporter.ts'],
  },
})
