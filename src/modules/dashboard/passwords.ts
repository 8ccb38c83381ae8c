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

/** `scrypt$N$r$p$salt$key`: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  const key = await scrypt(password, salt, KEY_LENGTH, COST)
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$')
  if (kind !== 'scrypt' || !key) return false
  const expected = Buffer.from(key, 'base64url')
  const given = await scrypt(password, Buffer.from(salt!, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: COST.maxmem,
  })
  return crypto.timingSafeEqual(given, expected)
}

// An unknown email still costs one scrypt, so the answer's timing does not tell which emails exist.
const DECOY = hashPassword(crypto.randomBytes(16).toString('hex'))
export async function spendDecoy(password: string): Promise<void> {
  await verifyPassword(password, await DECOY)
}
