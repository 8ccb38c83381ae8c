// npm run build: src/ as plain JavaScript in dist/ (same layout), with the SQL files, templates and
// assets the code reads beside it. The service runs from dist/: no TypeScript loader thread in the
// process (≈ 60 MB of RSS under load, measured with bench/memory.ts).
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

const root = path.resolve(import.meta.dirname, '..')
const src = path.join(root, 'src')
// An output folder inside the project (so node_modules resolve); the tests build to one of their own.
const out = path.resolve(root, process.argv[2] ?? 'dist')
const STAMP = '.source-hash'

const files = fs
  .readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => fs.statSync(path.join(src, f)).isFile() && !f.endsWith('.test.ts'))
  .sort()
const isCode = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts')
// Everything else the code opens at run time (SQL, templates, styles) is copied as is.
const isAsset = (f) => !f.endsWith('.ts')

// A build of these very sources is kept: a second start never rewrites files a running one loads.
const hash = crypto.createHash('sha256').update(fs.readFileSync(import.meta.filename))
for (const f of files) hash.update(`${f}\0`).update(fs.readFileSync(path.join(src, f)))
const sourceHash = hash.digest('hex')
const stampOf = (dir) => {
  try {
    return fs.readFileSync(path.join(dir, STAMP), 'utf8')
  } catch {
    return undefined
  }
}
if (stampOf(out) === sourceHash) process.exit(0)

// Built beside, then swapped in by renames: no moment with a half-written dist/.
const next = `${out}.next-${process.pid}`
fs.rmSync(next, { recursive: true, force: true })
await build({
  entryPoints: files.filter(isCode).map((f) => path.join(src, f)),
  outdir: next,
  outbase: src,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
})
for (const f of files.filter(isAsset)) {
  fs.mkdirSync(path.dirname(path.join(next, f)), { recursive: true })
  fs.copyFileSync(path.join(src, f), path.join(next, f))
}
fs.writeFileSync(path.join(next, STAMP), sourceHash)
const previous = `${out}.previous-${process.pid}`
try {
  fs.renameSync(out, previous)
} catch (error) {
  if (error.code !== 'ENOENT') throw error
}
try {
  fs.renameSync(next, out)
} catch (error) {
  // Another build swapped its own in meanwhile: same sources or newer, keep it.
  if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error
  fs.rmSync(next, { recursive: true, force: true })
}
fs.rmSync(previous, { recursive: true, force: true })
