import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

// House rules: routes call their module's service only; a module uses another through its index.ts.
const dir = new URL('./', import.meta.url)
const sources = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
const importsOf = (file: string) =>
  [...fs.readFileSync(new URL(file, dir), 'utf8').matchAll(/^(?:import|export)\b[^'"]*?from '([^']+)'/gm)].map((m) => m[1])

describe("the webhooks module's boundaries", () => {
  it('its routes reach the database only through its service', () => {
    const routes = sources.filter((f) => f.endsWith('.routes.ts'))
    expect(routes).toEqual(['webhooks-admin.routes.ts', 'webhooks.routes.ts'])
    for (const file of routes) {
      const imports = importsOf(file)
      expect(imports, file).toContain('./webhooks.service.js')
      for (const spec of imports) expect(spec, file).not.toMatch(/queries\.js$/)
    }
  })

  it('it reaches other modules through their public faces, their index.ts', () => {
    const foreign = sources.flatMap((file) => importsOf(file).flatMap((spec) => (/^\.\.\/[^.]/.test(spec) ? [{ file, spec }] : [])))
    expect(foreign.map((f) => f.spec)).toContain('../orders/index.js')
    for (const { file, spec } of foreign) expect(spec, file).toMatch(/^\.\.\/[\w-]+\/index\.js$/)
  })
})
