import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildTemplates } from './templates.js'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
  }
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reseller-test-'))
  // Every scratch directory of the run (data dirs, browser profiles, private clusters) lands in this one, removed at the end.
  process.env.TMPDIR = dir
  // A private cluster's data dir inside belongs to the postgres user, who must be able to reach it.
  fs.chmodSync(dir, 0o711)
  const template = path.join(dir, 'pglite-template.tar')
  await buildTemplates(template)
  project.provide('pgliteTemplate', template)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
