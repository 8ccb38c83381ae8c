import fs from 'node:fs'
import path from 'node:path'
import { root } from './built-process.js'

// What the deploy tests (deploy-files, deploy-scale) read from the repository.
export const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8')

/** The variables of src/config.ts's Env schema (what the service reads). */
export const configVariables = [
  ...read('src/config.ts')
    .match(/const Env = Type\.Object\(\{([\s\S]*?)\n\}\)/)![1]
    .matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm),
].map((m) => m[1])

/** deploy/env.example's variables (what deploy/.env holds once copied). */
export const envExample: Record<string, string> = Object.fromEntries(
  read('deploy/env.example')
    .split('\n')
    .filter((l) => /^[A-Z]/.test(l))
    .map((l) => l.split(/=(.*)/s, 2)),
)
