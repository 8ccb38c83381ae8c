import fs from 'node:fs'
import path from 'node:path'
import { withConfig, type Config } from './config.js'
import { randomToken } from './vault.js'

export type DevSecrets = { appKey?: string; adminToken?: string; demoApiKey?: string }

export type DevSecretStore = { config: Config; secrets: DevSecrets; save(changes: DevSecrets): void }

/**
 * Outside production, a missing APP_KEY or ADMIN_TOKEN is generated once and kept in DATA_DIR
 * (only in memory for DATA_DIR=memory), so restarts keep reading the same encrypted data.
 */
export function resolveDevSecrets(config: Config): DevSecretStore {
  const file = config.dataDir === 'memory' ? undefined : path.join(config.dataDir, 'secrets.json')
  let secrets: DevSecrets = file && fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as DevSecrets) : {}
  const save = (changes: DevSecrets) => {
    secrets = { ...secrets, ...changes }
    if (!file) return
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 })
  }
  const generated: DevSecrets = {}
  if (!config.appKey && !secrets.appKey) generated.appKey = randomToken(32)
  if (!config.adminToken && !secrets.adminToken) generated.adminToken = randomToken(24)
  if (Object.keys(generated).length > 0) save(generated)
  const resolved = withConfig(config, {
    appKey: config.appKey ?? secrets.appKey,
    adminToken: config.adminToken ?? secrets.adminToken,
  })
  return {
    config: resolved,
    get secrets() {
      return secrets
    },
    save,
  }
}
