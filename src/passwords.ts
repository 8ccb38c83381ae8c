import crypto from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>

// OWASP's scrypt floor (N=2^15, r=8, p=1): about 60 ms here, off the event loop (libuv's pool).
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const KEY_LENGTH = 32

export const PASSWORD_MIN = 10
export const PASSWORD_MAX = 200

/**
 * `scrypt$N$r$p$salt$key`: the parameters travel with the hash, so they can be raised later. `like`, a
 * hash of the same email in another account, lends its salt: one scrypt then checks all of that email's rows.
 */
export async function hashPassword(password: string, like?: string | null): Promise<string> {
  const lent = like ? Buffer.from(like.split('$')[4] ?? '', 'base64url') : undefined
  const salt = lent && lent.length >= 16 ? lent : crypto.randomBytes(16)
  const key = await scrypt(password, salt, KEY_LENGTH, COST)
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

const derive = (password: string, [, n, r, p, salt]: string[], length: number) =>
  scrypt(password, Buffer.from(salt ?? '', 'base64url'), length, { N: Number(n), r: Number(r), p: Number(p), maxmem: COST.maxmem })

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  return (await matchingHashes(password, [{ password_hash: stored }])).length === 1
}

/**
 * The rows whose hash the password matches, for one scrypt per distinct salt and parameters (an
 * email's rows share one), or a decoy's when there are none: the work does not tell how many there are.
 */
export async function matchingHashes<T extends { password_hash: string }>(password: string, rows: T[]): Promise<T[]> {
  if (rows.length === 0) {
    await derive(password, (await DECOY).split('$'), KEY_LENGTH)
    return []
  }
  const derived = new Map<string, Buffer>()
  const matched: T[] = []
  for (const row of rows) {
    const parts = row.password_hash.split('$')
    const expected = Buffer.from(parts[5] ?? '', 'base64url')
    if (parts[0] !== 'scrypt' || expected.length === 0) continue
    const params = `${parts.slice(1, 5).join('$')}$${expected.length}`
    const key = derived.get(params) ?? (await derive(password, parts, expected.length))
    derived.set(params, key)
    if (crypto.timingSafeEqual(key, expected)) matched.push(row)
  }
  return matched
}

// An unknown email still costs one scrypt, so the answer's timing does not tell which emails exist.
const DECOY = hashPassword(crypto.randomBytes(16).toString('hex'))
