import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SLOW_SUITES } from '../vitest.config.js'
import { slowFirstSequencer, suiteMatcher as matcher } from './slow-first-sequencer.js'

// Keeps SLOW_SUITES (what `npm run test:fast` leaves out) current: every entry names a test file
// that exists, and every test file that starts the service as processes of its own or a browser
// is listed. The other reasons a suite is slow (the fuzzer, the 50,000-product import) are the
// list's own business.
const ROOT = path.resolve(import.meta.dirname, '..')

// test/'s helpers that start the service (server-process.ts: tsx src/main.ts; built-process.ts:
// node dist/main.js, or a deployment's command) or a browser (browser.ts). A new helper that does
// joins this list: a test below fails on a helper that starts one without being named here.
const STARTERS = ['startServerProcess', 'startBuilt', 'startCommand', 'launchChromium']
const CALLS_A_STARTER = new RegExp(String.raw`\b(?:${STARTERS.join('|')})\(`)
// The service's entry run directly (spawn/fork/execFile/execa of main.js or src/main.ts), or Chromium launched.
const SPAWNS_THE_SERVICE = /\b(?:spawn|spawnSync|fork|execFile|execFileSync|execa|execaNode)\(\s*[^;]*?\bmain\.[jt]s\b/
const LAUNCHES_A_BROWSER = /\bchromium\.launch\w*\(/

const startsProcesses = (text: string) => CALLS_A_STARTER.test(text) || SPAWNS_THE_SERVICE.test(text) || LAUNCHES_A_BROWSER.test(text)

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    if (name === 'node_modules') return []
    const relative = `${dir}/${name}`
    if (statSync(path.join(ROOT, relative)).isDirectory()) return filesUnder(relative, keep)
    return keep(name) ? [relative] : []
  })
}

const packageTests = readdirSync(path.join(ROOT, 'packages')).flatMap((p) => {
  try {
    return statSync(path.join(ROOT, 'packages', p, 'test')).isDirectory() ? [`packages/${p}/test`] : []
  } catch {
    return []
  }
})
// vitest.config.ts's `include`: src/**, test/** and packages/*/test/**.
const testFiles = ['src', 'test', ...packageTests].flatMap((dir) => filesUnder(dir, (name) => name.endsWith('.test.ts')))
const helpers = filesUnder('test', (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8')

const listed = (file: string) => SLOW_SUITES.some((entry) => matcher(entry).test(file))

describe('SLOW_SUITES (vitest.config.ts)', () => {
  it('names only test files that exist', () => {
    const namingNothing = SLOW_SUITES.filter((entry) => !testFiles.some((file) => matcher(entry).test(file)))
    expect(namingNothing).toEqual([])
  })

  it('lists every test file that starts service processes or a browser', () => {
    const starting = testFiles.filter((file) => startsProcesses(read(file)))
    // The guard sees the suites it is meant to see: the listed process and browser suites are among them.
    expect(starting).toEqual(expect.arrayContaining(['test/startup.test.ts', 'test/cli.test.ts', 'src/http/metrics.test.ts']))
    expect(starting.some((file) => file.endsWith('.browser.test.ts'))).toBe(true)
    expect(starting.filter((file) => !listed(file))).toEqual([])
  })

  it('knows every helper in test/ that starts the service or a browser', () => {
    const unnamed = helpers.filter((file) => {
      const text = read(file)
      const startsOne = SPAWNS_THE_SERVICE.test(text) || LAUNCHES_A_BROWSER.test(text) || CALLS_A_STARTER.test(text)
      const definesAStarter = STARTERS.some((name) => new RegExp(String.raw`\bfunction ${name}\b`).test(text))
      return startsOne && !definesAStarter
    })
    expect(unnamed).toEqual([])
  })

  it('reads globs as vitest does for the shapes the list uses', () => {
    expect(matcher('**/*.browser.test.ts').test('src/modules/console/team.browser.test.ts')).toBe(true)
    expect(matcher('**/*.browser.test.ts').test('src/modules/console/console.test.ts')).toBe(false)
    expect(matcher('test/cli.test.ts').test('test/cli.test.ts')).toBe(true)
    expect(matcher('test/cli.test.ts').test('test/clixtest.ts')).toBe(false)
  })

  it("starts the listed suites first, in the list's order, and the rest largest first", async () => {
    const sizes: Record<string, number> = { 'src/a.test.ts': 10, 'src/b.test.ts': 30, 'test/slow.test.ts': 5, 'src/x.browser.test.ts': 1 }
    // What BaseSequencer reads of vitest: the root, and the cache of a run without earlier results.
    const ctx = {
      config: { root: ROOT },
      cache: { getFileTestResults: () => undefined, getFileStats: (key: string) => ({ size: sizes[key.slice(1)] }) },
    }
    const Sequencer = slowFirstSequencer(['test/slow.test.ts', '**/*.browser.test.ts'])
    const specs = Object.keys(sizes).map((file) => ({ project: { name: '' }, moduleId: path.join(ROOT, file) }))
    const sorted = await new Sequencer(ctx as never).sort(specs as never)
    expect(sorted.map((s) => path.relative(ROOT, s.moduleId))).toEqual([
      'test/slow.test.ts',
      'src/x.browser.test.ts',
      'src/b.test.ts',
      'src/a.test.ts',
    ])
  })
})
