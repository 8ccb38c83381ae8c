import crypto from 'node:crypto'

/** Encryption and fingerprints under APP_KEY: licenses, provider keys and webhook secrets at rest. */
export type Vault = {
  encrypt(plain: string): string
  decrypt(sealed: string): string
  /** A keyed digest that finds duplicates without storing the plain text. */
  fingerprint(plain: string): string
  /** Identifies the key itself, so a database refuses to run under a different one. */
  keyFingerprint: string
}

export function createVault(appKey: string): Vault {
  const derive = (purpose: string) => Buffer.from(crypto.hkdfSync('sha256', appKey, 'reseller-ordering', purpose, 32))
  const encryptionKey = derive('encrypt')
  const fingerprintKey = derive('fingerprint')
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv('aes-256-gcm', encryptionKey, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return `v1.${iv.toString('base64')}.${cipher.getAuthTag().toString('base64')}.${body.toString('base64')}`
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.')
      if (version !== 'v1' || body === undefined) throw new Error('unknown sealed value format')
      const decipher = crypto.createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64'))
      decipher.setAuthTag(Buffer.from(tag, 'base64'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
    },
    fingerprint(plain) {
      return crypto.createHmac('sha256', fingerprintKey).update(plain).digest('hex')
    },
    keyFingerprint: crypto.createHash('sha256').update(derive('key-id')).digest('hex').slice(0, 32),
  }
}

export function randomToken(bytes: number): string {
  return crypto.randomBytes(bytes).toString('base64url')
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex')
}
