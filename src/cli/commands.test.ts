import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMANDS, exampleOf, FlagError, parseArgs, queryOf } from './commands.js'

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

describe('admin CLI price levels', () => {
  const callOf = (argv: string[]) => {
    const { name, args, flags } = parseArgs(argv)
    const command = COMMANDS[name]!
    return [command.method, command.path(args), command.body?.(flags, args)]
  }

  it('maps levels, levels:create, levels:update and levels:rules onto the price level routes', () => {
    expect(callOf(['levels'])).toEqual(['GET', '/price-levels', undefined])
    expect(callOf(['levels:create', '--code', 'h2h', '--name', 'H2H partner', '--position', '2', '--default'])).toEqual([
      'POST',
      '/price-levels',
      { code: 'h2h', name: 'H2H partner', position: 2, is_default: true },
    ])
    expect(callOf(['levels:update', 'member', '--promote-at', '500', '--promote-to', 'reseller'])).toEqual([
      'PATCH',
      '/price-levels/member',
      { promote_at: 500, promote_to: 'reseller' },
    ])
    expect(callOf(['levels:update', 'member', '--promote-at', 'none', '--promote-to', 'none'])).toEqual([
      'PATCH',
      '/price-levels/member',
      { promote_at: null, promote_to: null },
    ])
    expect(callOf(['levels:rules', 'h2h'])).toEqual(['GET', '/price-levels/h2h/rules', undefined])
    expect(() => callOf(['levels:update', 'member', '--position', 'first'])).toThrow(/--position: not a number/)
  })

  it('levels:rules-set sends the whole set: from a JSON file, inline JSON, one rule by flags, or none', () => {
    const rules = [
      { scope: 'all', percent: -2, round_to: 50 },
      { scope: 'brand', brand: 'Telkomsel', flat: 25 },
    ]
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'levels-'))
    const file = path.join(dir, 'rules.json')
    fs.writeFileSync(file, JSON.stringify({ rules }))
    expect(callOf(['levels:rules-set', 'h2h', '--file', file])).toEqual(['PUT', '/price-levels/h2h/rules', { rules }])
    fs.writeFileSync(file, JSON.stringify(rules))
    expect(callOf(['levels:rules-set', 'h2h', '--file', file])).toEqual(['PUT', '/price-levels/h2h/rules', { rules }])
    expect(callOf(['levels:rules-set', 'h2h', '--rules', JSON.stringify(rules)])[2]).toEqual({ rules })
    expect(callOf(['levels:rules-set', 'h2h', '--scope', 'brand', '--brand', 'XL', '--category-id', '3', '--percent', '-1.5'])[2]).toEqual({
      rules: [{ scope: 'brand', brand: 'XL', category_id: 3, percent: -1.5 }],
    })
    expect(callOf(['levels:rules-set', 'h2h', '--empty'])[2]).toEqual({ rules: [] })
    expect(() => callOf(['levels:rules-set', 'h2h'])).toThrow(FlagError)
    fs.writeFileSync(file, '{ not json')
    expect(() => callOf(['levels:rules-set', 'h2h', '--file', file])).toThrow(/not JSON/)
    expect(() => callOf(['levels:rules-set', 'h2h', '--file', path.join(dir, 'missing.json')])).toThrow(/cannot read/)
    fs.rmSync(dir, { recursive: true })
  })

  it("items:level-prices shows an item's prices; -set takes LEVEL=PRICE pairs, none back to the rules", () => {
    expect(callOf(['items:level-prices', '88'])).toEqual(['GET', '/items/88/level-prices', undefined])
    expect(callOf(['items:level-prices-set', '88', 'h2h=21000', 'member=none'])).toEqual([
      'PUT',
      '/items/88/level-prices',
      { h2h: 21_000, member: null },
    ])
    expect(() => callOf(['items:level-prices-set', '88', 'h2h=cheap'])).toThrow(/not LEVEL=PRICE/)
    expect(() => callOf(['items:level-prices-set', '88'])).toThrow(FlagError)
  })

  it('resellers:update --price-level moves a reseller to a level', () => {
    expect(callOf(['resellers:update', '7', '--price-level', 'h2h'])).toEqual(['PATCH', '/resellers/7', { price_level: 'h2h' }])
  })
})

describe('admin CLI complaints', () => {
  const callOf = (argv: string[]) => {
    const { name, args, flags } = parseArgs(argv)
    const command = COMMANDS[name]!
    return [command.method, command.path(args), command.body?.(flags, args)]
  }

  it('maps complaints:* onto the operator complaint routes', () => {
    expect(callOf(['complaints:list'])).toEqual(['GET', '/complaints', undefined])
    expect(callOf(['complaints:show', '12'])).toEqual(['GET', '/complaints/12', undefined])
    expect(callOf(['complaints:reply', '12', '--message', 'checking'])).toEqual(['POST', '/complaints/12/reply', { message: 'checking' }])
    expect(callOf(['complaints:resend', '12', '--mode', 'auto'])).toEqual(['POST', '/complaints/12/resend', { mode: 'auto' }])
    expect(callOf(['complaints:resend', '12', '--mode', 'manual', '--license', 'V-1'])).toEqual([
      'POST',
      '/complaints/12/resend',
      { mode: 'manual', product_license: 'V-1' },
    ])
    expect(callOf(['complaints:recheck', '12'])).toEqual(['POST', '/complaints/12/recheck', undefined])
    expect(callOf(['complaints:refund', '12'])).toEqual(['POST', '/complaints/12/refund', {}])
    expect(callOf(['complaints:reject', '12', '--reason', 'used'])).toEqual(['POST', '/complaints/12/reject', { reason: 'used' }])
  })

  it('maps alerts:* onto the alert routes, and providers:update onto the low-balance thresholds', () => {
    expect(callOf(['alerts:list', '--open', 'true'])).toEqual(['GET', '/alerts', undefined])
    expect(callOf(['alerts:channels'])).toEqual(['GET', '/alert-channels', undefined])
    expect(callOf(['alerts:set-channels', '--telegram', '-100123', '--webhook', 'https://ops.example/a', '--rotate-secret'])).toEqual([
      'PUT',
      '/alert-channels',
      { email: null, telegram: { chat_id: '-100123' }, webhook: { url: 'https://ops.example/a', rotate_secret: true } },
    ])
    expect(callOf(['providers:update', 'dgf', '--alert-below', '500000', '--alert-hours', 'none'])).toEqual([
      'PATCH',
      '/providers/dgf',
      { balance_alert_below: 500_000, balance_alert_hours: null },
    ])
    expect(() => callOf(['providers:update', 'dgf', '--alert-hours', 'soon'])).toThrow('--alert-hours: not a number')
  })

  it('says what a manual resend lacks', () => {
    expect(() => callOf(['complaints:resend', '12', '--mode', 'manual'])).toThrow(FlagError)
    expect(() => callOf(['complaints:resend', '12', '--mode', 'typed'])).toThrow('--mode: auto or manual')
  })
})
