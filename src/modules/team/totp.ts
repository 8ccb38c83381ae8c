import crypto from 'node:crypto'
import { sha256Hex } from '../../vault.js'

// RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps (docs/design.md §11d).
const STEP_SECONDS = 30
const DIGITS = 6
/** Steps either side of now a code is still taken at: a phone's clock a little off, a code typed late. */
const WINDOW = 1
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export function base32Encode(bytes: Buffer): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

export function base32Decode(text: string): Buffer {
  const bytes: number[] = []
  let bits = 0
  let value = 0
  for (const char of text.replace(/[=\s]/g, '').toUpperCase()) {
    const index = BASE32.indexOf(char)
    if (index < 0) throw new Error('not base32')
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(bytes)
}

/** A new secret: 160 random bits, base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(20))
}

export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / STEP_SECONDS)
}

/** The code of one step (RFC 4226's HOTP of the step counter). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = crypto.createHmac('sha1', base32Decode(secret)).update(counter).digest()
  const offset = mac[mac.length - 1] & 15
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** DIGITS).padStart(DIGITS, '0')
}

/**
 * The step a typed code belongs to, within ±1 step of `at` and after `lastStep` (a code is good
 * once: the caller records the step it answers), or null.
 */
export function acceptedStep(secret: string, code: string, at: Date, lastStep: number | null): number | null {
  const typed = code.replace(/\s/g, '')
  if (!/^\d{6}$/.test(typed)) return null
  const now = totpStep(at)
  for (let step = now - WINDOW; step <= now + WINDOW; step++) {
    if (lastStep !== null && step <= lastStep) continue
    const expected = totpCode(secret, step)
    if (crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(typed))) return step
  }
  return null
}

/** The `otpauth://` URI an authenticator app enrols from (drawn as a QR code by the enrolment page). */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`)
  const query = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(DIGITS), period: String(STEP_SECONDS) })
  return `otpauth://totp/${label}?${query}`
}

/** A secret in groups of four, as apps ask for it typed: easier to copy by hand. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ')
}

/** Ten one-time recovery codes (`xxxxx-xxxxx`), and the SHA-256 of each to keep. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: 10 }, () => {
    const raw = crypto.randomBytes(8).toString('hex').slice(0, 10)
    return `${raw.slice(0, 5)}-${raw.slice(5)}`
  })
  return { codes, hashes: codes.map(recoveryCodeHash) }
}

export function recoveryCodeHash(code: string): string {
  return sha256Hex(code.trim().toLowerCase())
}
