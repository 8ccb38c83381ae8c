import { describe, expect, it } from 'vitest'
import { acceptedStep, base32Decode, base32Encode, newRecoveryCodes, otpauthUri, recoveryCodeHash, totpCode } from './totp.js'

// RFC 6238 appendix B, SHA-1: the ASCII secret "12345678901234567890", 8-digit codes cut to their last 6.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'))
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
]

describe('TOTP', () => {
  it('matches the RFC 6238 test vectors', () => {
    for (const [seconds, code] of RFC_VECTORS) expect(totpCode(RFC_SECRET, Math.floor(seconds / 30))).toBe(code.slice(2))
  })

  it('round-trips base32', () => {
    const bytes = Buffer.from('any twenty bytes....')
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes)
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI')
  })

  it('takes a code one step either side, never the same step twice, nothing else', () => {
    const at = new Date(1_700_000_000_000)
    const now = Math.floor(at.getTime() / 30_000)
    expect(acceptedStep(RFC_SECRET, totpCode(RFC_SECRET, now), at, null)).toBe(now)
    expect(acceptedStep(RFC_SECRET, totpCode(RFC_SECRET, now - 1), at, null)).toBe(now - 1)
    expect(acceptedStep(RFC_SECRET, totpCode(RFC_SECRET, now + 1), at, null)).toBe(now + 1)
    expect(acceptedStep(RFC_SECRET, totpCode(RFC_SECRET, now - 2), at, null)).toBeNull()
    expect(acceptedStep(RFC_SECRET, totpCode(RFC_SECRET, now), at, now)).toBeNull()
    expect(acceptedStep(RFC_SECRET, '12345', at, null)).toBeNull()
    expect(acceptedStep(RFC_SECRET, 'abcdef', at, null)).toBeNull()
  })

  it('writes the otpauth URI authenticator apps read', () => {
    const uri = new URL(otpauthUri('Reseller Console', 'ana@example.com', RFC_SECRET))
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.host).toBe('totp')
    expect(decodeURIComponent(uri.pathname)).toBe('/Reseller Console:ana@example.com')
    expect(uri.searchParams.get('secret')).toBe(RFC_SECRET)
    expect(uri.searchParams.get('digits')).toBe('6')
  })

  it('makes ten distinct recovery codes whose hashes match them as typed', () => {
    const { codes, hashes } = newRecoveryCodes()
    expect(new Set(codes).size).toBe(10)
    expect(recoveryCodeHash(` ${codes[3].toUpperCase()} `)).toBe(hashes[3])
  })
})
