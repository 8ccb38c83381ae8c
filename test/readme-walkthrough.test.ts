import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../src/errors.js'
import { NODE, PHP, PYTHON } from '../src/modules/webhooks/index.js'
import { eventually, until } from './eventually.js'

// The README's "Five minutes with curl", run as written against `npm start`'s service: each bash
// block in order, each answer compared with the block that follows it. "…" in an expected value
// stands for what differs from run to run (invoices, times, licenses).
const root = path.resolve(import.meta.dirname, '..')
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8')
const WALKTHROUGH = '## Five minutes with curl'
// The ports the README names: the service's default and its receiver's (`127.0.0.1:9000`, `listen(9000`).
const README_SERVICE = '127.0.0.1:8080'
const README_RECEIVER = /(?<=127\.0\.0\.1:|listen\()9000\b/g

type Block = { lang: string; text: string }

/** The fenced blocks of the README section that starts with `heading`, in order. */
function sectionBlocks(markdown: string, heading: string): Block[] {
  const start = markdown.indexOf(`\n${heading}\n`)
  if (start < 0) throw new Error(`README has no "${heading}" section`)
  const rest = markdown.slice(start + heading.length + 2)
  const end = rest.search(/^## /m)
  const section = end < 0 ? rest : rest.slice(0, end)
  return [...section.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], text: m[2] }))
}

/** Consecutive JSON values as they come out of curl and `jq -c` (with or without newlines between them). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = []
  let depth = 0
  let start = -1
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i
    } else if ((c === '}' || c === ']') && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)))
  }
  return values
}

/** Expected text with "…" as "anything here". */
const pattern = (expected: string) =>
  new RegExp(
    `^${expected
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  )

/** `actual` has every field of `expected` with the same value ("…" in a string: any text there), arrays element by element. */
function matches(expected: unknown, actual: unknown, at = '$'): string[] {
  if (typeof expected === 'string')
    return typeof actual === 'string' && pattern(expected).test(actual)
      ? []
      : [`${at}: expected ${expected}, got ${JSON.stringify(actual)}`]
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return [`${at}: expected ${expected.length} values, got ${JSON.stringify(actual)}`]
    return expected.flatMap((e, i) => matches(e, actual[i], `${at}[${i}]`))
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return [`${at}: expected an object, got ${JSON.stringify(actual)}`]
    return Object.entries(expected).flatMap(([k, v]) => matches(v, (actual as Record<string, unknown>)[k], `${at}.${k}`))
  }
  return Object.is(expected, actual) ? [] : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`]
}

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0
const tools = ['curl', 'jq', 'npm'].filter((t) => !has(t))

describe('README: the walkthrough', () => {
  it('has the blocks the runner understands', () => {
    const blocks = sectionBlocks(readme, WALKTHROUGH)
    expect(blocks.filter((b) => b.lang === 'bash').length).toBeGreaterThan(5)
    expect(blocks.map((b) => b.lang).filter((lang) => !['bash', 'json', 'text'].includes(lang))).toEqual([])
    // An expected answer (json) is the output of the command block right before it.
    expect(blocks.filter((b, i) => b.lang === 'json' && blocks[i - 1]?.lang !== 'bash')).toEqual([])
  })
})

describe.skipIf(tools.length > 0)('README: the walkthrough against a started service (needs curl, jq and npm)', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-walkthrough-'))
  const dataDir = path.join(scratch, 'data')
  const built = `.test-dist-readme-${process.pid}`
  const children: ChildProcess[] = []
  // Everything the blocks printed so far, one file each: what a background command prints lands in its block's file.
  const outputs: string[] = []
  let service: ChildProcess | undefined
  let serviceOutput = ''
  let servicePort = 0
  let receiverPort = 0

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs', built], { cwd: root })
    servicePort = await freePort()
    receiverPort = await freePort()
    // As `npm start` runs it, with nothing configured: a generated key and token, the demo seeded.
    const started = spawn(process.execPath, ['--max-semi-space-size=4', `${built}/main.js`], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(servicePort),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    service = started
    children.push(service)
    service.stdout!.on('data', (chunk) => (serviceOutput += chunk))
    service.stderr!.on('data', (chunk) => (serviceOutput += chunk))
    await until(
      'the service printed its banner',
      () => {
        if (started.exitCode !== null) throw new Error(`the service exited ${started.exitCode}`)
        return /admin token: +\S+/.test(serviceOutput)
      },
      { timeoutMs: 90_000 },
    ).catch((error: Error) => {
      throw new Error(`${error.message}:\n${serviceOutput}`)
    })
  }, 120_000)

  afterAll(async () => {
    // Each block ran in a process group of its own: a background command it left (the receiver) goes with it.
    for (const child of children) {
      try {
        if (child === service) child.kill('SIGTERM')
        else process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const running = service
    if (running && running.exitCode === null && running.signalCode === null) await new Promise((resolve) => running.once('exit', resolve))
    fs.rmSync(path.join(root, built), { recursive: true, force: true })
    fs.rmSync(scratch, { recursive: true, force: true })
  }, 30_000)

  const local = (text: string) => text.replaceAll(README_SERVICE, `127.0.0.1:${servicePort}`).replace(README_RECEIVER, String(receiverPort))

  /** Runs one block in bash (variables carried from the blocks before it); answers what it printed. */
  async function run(block: string, n: number): Promise<string> {
    const state = path.join(scratch, 'state.sh')
    const out = path.join(scratch, `block-${n}.out`)
    const err = path.join(scratch, `block-${n}.err`)
    const script = [
      'set -eo pipefail',
      `[ -f '${state}' ] && source '${state}'`,
      'set -a',
      local(block),
      'set +a',
      `export -p > '${state}'`,
    ]
    const [stdout, stderr] = [fs.openSync(out, 'a'), fs.openSync(err, 'a')]
    outputs[n] = out
    const env = {
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
      HOME: process.env.HOME,
      TMPDIR: os.tmpdir(),
      DATA_DIR: dataDir,
      LANG: 'C.UTF-8',
    }
    const child = spawn('bash', ['-c', script.join('\n')], { cwd: root, env, stdio: ['ignore', stdout, stderr], detached: true })
    children.push(child)
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    fs.closeSync(stdout)
    fs.closeSync(stderr)
    const printed = fs.readFileSync(out, 'utf8')
    expect(code, `block ${n} exited ${code}:\n${local(block)}\n--- stdout\n${printed}\n--- stderr\n${fs.readFileSync(err, 'utf8')}`).toBe(0)
    return printed
  }

  /** What every block printed so far, background commands included. */
  const everything = () => outputs.map((file) => fs.readFileSync(file, 'utf8')).join('\n')

  it('printed at its first start what the README shows', () => {
    const step = (line: string) => line.replace(/^\[\s*[\d.]+ s\] /, '')
    const shown = sectionBlocks(readme, '## Start it').find((b) => b.lang === 'text')!
    const lines = local(shown.text)
      .replaceAll('data/pglite', path.join(dataDir, 'pglite'))
      .replaceAll('(./data)', `(${dataDir})`)
      .split('\n')
      .filter((line) => line.trim())
    const printed = serviceOutput.split('\n').map(step)
    expect(
      lines.map(step).filter((line) => !printed.some((p) => pattern(line).test(p))),
      serviceOutput,
    ).toEqual([])
  })

  it('runs every command and answers as the README says', async () => {
    const blocks = sectionBlocks(readme, WALKTHROUGH)
    let printed = ''
    for (const [n, block] of blocks.entries()) {
      if (block.lang === 'bash') printed = await run(block.text, n)
      else if (block.lang === 'json') {
        const expected = jsonValues(local(block.text))
        const actual = jsonValues(printed)
        expect(actual.length, `block ${n - 1} printed ${printed}`).toBe(expected.length)
        expect(
          expected.flatMap((e, i) => matches(e, actual[i], `answer ${i + 1}`)),
          `block ${n - 1} printed ${printed}`,
        ).toEqual([])
      } else if (block.lang === 'text') {
        // Printed by a command still running (the receiver): each line shows up, in any order.
        const lines = local(block.text)
          .split('\n')
          .filter((l) => l.trim())
        const wanted = (text: string) => lines.filter((line) => !text.split('\n').some((l) => pattern(line).test(l.trim())))
        const missing = await eventually(
          'every line printed',
          () => wanted(everything()),
          (w) => w.length === 0,
          {
            timeoutMs: 30_000,
          },
        ).catch(() => wanted(everything()))
        expect(missing, `printed so far:\n${everything()}`).toEqual([])
      }
    }
  }, 240_000)
})

describe('docs: every relative link resolves inside the repository', () => {
  const docs = [
    'README.md',
    ...fs
      .readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ]
  // GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens.
  const anchors = (file: string) =>
    new Set(
      [
        ...fs
          .readFileSync(file, 'utf8')
          .replace(/^```[\s\S]*?^```$/gm, '')
          .matchAll(/^#{1,6} (.+)$/gm),
      ].map((m) =>
        m[1]
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s_-]/gu, '')
          .replace(/\s/g, '-'),
      ),
    )
  it.each(docs)('%s', (doc) => {
    const text = fs.readFileSync(path.join(root, doc), 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
    const broken: string[] = []
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue
      const [file, anchor] = target.split('#')
      const resolved = file ? path.resolve(path.dirname(path.join(root, doc)), decodeURIComponent(file)) : path.join(root, doc)
      if (!resolved.startsWith(root + path.sep)) broken.push(`${target}: outside the repository`)
      else if (!fs.existsSync(resolved)) broken.push(`${target}: no such file`)
      else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${target}: no such heading`)
    }
    expect(broken).toEqual([])
  })
})

describe('docs: what they copy from the code', () => {
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8')

  it('docs/operating.md has every variable of src/config.ts in its configuration table', () => {
    const env = read('src/config.ts').match(/const Env = Type\.Object\(\{([\s\S]*?)\n\}\)/)![1]
    const variables = [...env.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1])
    expect(variables.length).toBeGreaterThan(30)
    const table = read('docs/operating.md')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|')[1])
      .join(' ')
    expect(variables.filter((name) => !table.includes(`\`${name}\``))).toEqual([])
  })

  it('docs/integrating.md names every error code of src/errors.ts', () => {
    const doc = read('docs/integrating.md')
    expect(Object.keys(ERROR_CODES).filter((code) => !doc.includes(`\`${code}\``))).toEqual([])
  })

  it('docs/integrating.md shows the webhook verification code GET /api/v1/webhook/docs hands out', () => {
    const doc = read('docs/integrating.md')
    const section = doc.slice(doc.indexOf('### Verifying a webhook'))
    const block = (lang: string) => section.match(new RegExp(`^\`\`\`${lang}\n([\\s\\S]*?)^\`\`\`$`, 'm'))?.[1]
    expect(block('js')).toBe(NODE)
    expect(block('php')).toBe(PHP)
    expect(block('python')).toBe(PYTHON)
  })
})
