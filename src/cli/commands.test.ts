import { describe, expect, it } from 'vitest'
import { COMMANDS, exampleOf, parseArgs, queryOf } from './commands.js'

describe('admin CLI help', () => {
  it('gives every command an example that parses into a call with no placeholder left', () => {
    for (const [name, command] of Object.entries(COMMANDS)) {
      const example = exampleOf(name, command)
      // The shell's quoting, as a user's shell would undo it.
      const argv = [...example.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2])
      const { name: parsed, args, flags } = parseArgs(argv)
      expect(parsed, example).toBe(name)
      expect(() => command.body?.(flags, args), example).not.toThrow()
      expect(command.path(args), example).not.toMatch(/undefined/)
      expect(example, name).not.toMatch(/\.\.\.|\b(ID|CODE|TEXT|N|X|P|C|NAME|URL)\b/)
    }
  })
})

describe('admin CLI reports', () => {
  it('reports:margin-watch asks GET /reports/margin-watch with its days as the query', () => {
    const { name, flags } = parseArgs(['reports:margin-watch', '--from', '2026-11-01', '--to', '2026-11-30'])
    const command = COMMANDS[name]!
    expect([command.method, command.path([]), flags]).toEqual(['GET', '/reports/margin-watch', { from: '2026-11-01', to: '2026-11-30' }])
    expect(exampleOf(name, command)).toBe('reports:margin-watch --from 2026-11-01 --to 2026-11-30')
  })
})

describe('admin CLI audit', () => {
  it('audit asks GET /audit with each filter as the API names it', () => {
    const argv = ['audit', '--actor', 'admin token', '--target-type', 'items', '--target-id', '7', '--from', '2026-12-01T00:00:00Z']
    const { name, flags } = parseArgs([...argv, '--format', 'csv'])
    const command = COMMANDS[name]!
    expect([command.method, command.path([])]).toEqual(['GET', '/audit'])
    expect(Object.fromEntries(new URLSearchParams(queryOf(command, flags)))).toEqual({
      actor: 'admin token',
      target_type: 'items',
      target_id: '7',
      from: '2026-12-01T00:00:00Z',
      format: 'csv',
    })
  })
})
