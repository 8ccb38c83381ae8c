import { describe, expect, it } from 'vitest'
import { COMMANDS, exampleOf, FlagError, parseArgs } from './commands.js'

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

describe('admin CLI team', () => {
  const callOf = (argv: string[]) => {
    const { name, args, flags } = parseArgs(argv)
    const command = COMMANDS[name]!
    return [command.method, command.path(args), command.body?.(flags, args)]
  }

  it('maps operators:* and tokens:* onto the team routes', () => {
    expect(callOf(['operators:invite', 'ana@tokomaju.example', '--name', 'Ana Putri', '--role', 'finance'])).toEqual([
      'POST',
      '/operators',
      { email: 'ana@tokomaju.example', name: 'Ana Putri', role: 'finance' },
    ])
    expect(callOf(['operators:create', '--owner', '--email', 'o@tokomaju.example', '--name', 'Budi'])).toEqual([
      'POST',
      '/operators',
      { email: 'o@tokomaju.example', name: 'Budi', role: 'owner' },
    ])
    expect(callOf(['operators:update', '4', '--role', 'admin'])).toEqual(['PATCH', '/operators/4', { role: 'admin' }])
    expect(callOf(['operators:remove', '4'])).toEqual(['DELETE', '/operators/4', undefined])
    expect(callOf(['operators:reset-2fa', '4'])).toEqual(['POST', '/operators/4/second-factor/reset', undefined])
    expect(callOf(['operators:tokens', '4'])).toEqual(['GET', '/operators/4/tokens', undefined])
    expect(callOf(['operators:revoke-token', '4', '12'])).toEqual(['DELETE', '/operators/4/tokens/12', undefined])
    expect(callOf(['tokens:create', '--name', 'laptop'])).toEqual(['POST', '/me/tokens', { name: 'laptop' }])
    expect(callOf(['tokens:list'])).toEqual(['GET', '/me/tokens', undefined])
    expect(callOf(['tokens:revoke', '12'])).toEqual(['DELETE', '/me/tokens/12', undefined])
    expect(callOf(['me'])).toEqual(['GET', '/me', undefined])
  })

  it('makes only owners with operators:create, and says so without --owner', () => {
    expect(() => callOf(['operators:create', '--email', 'o@tokomaju.example', '--name', 'Budi'])).toThrow(FlagError)
    expect(() => callOf(['operators:create', '--email', 'o@tokomaju.example', '--name', 'Budi'])).toThrow(/operators:invite/)
  })
})
