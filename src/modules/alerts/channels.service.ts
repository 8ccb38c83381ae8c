import { inTransaction, type Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import type { Vault } from '../../vault.js'
import { callbackUrlProblem, newWebhookSecret } from '../webhooks/index.js'
import { channelsRow } from './alerts.queries.js'
import { lockChannels, saveChannels, type ChannelsColumns } from './channels.queries.js'

// Where alerts go (docs/design.md §11e): the channels an owner sets, one row.

export type ChannelsBody = {
  email?: { to: string } | null
  telegram?: { chat_id: string } | null
  webhook?: { url: string; rotate_secret?: boolean } | null
}
export type ChannelsView = {
  email: { to: string } | null
  telegram: { chat_id: string } | null
  webhook: { url: string; has_secret: boolean; secret?: string } | null
}

const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/
// As the table's check: a numeric chat id (groups and channels negative) or a public @username.
const CHAT_ID = /^-?[0-9]{1,20}$|^@[A-Za-z0-9_]{5,32}$/

function view(row: Omit<ChannelsColumns, 'webhook_secret_enc'> & { webhook_secret_enc: string | null }): ChannelsView {
  return {
    email: row.email_to ? { to: row.email_to } : null,
    telegram: row.telegram_chat_id ? { chat_id: row.telegram_chat_id } : null,
    webhook: row.webhook_url ? { url: row.webhook_url, has_secret: row.webhook_secret_enc !== null } : null,
  }
}

/** GET /alert-channels: what is set, never the webhook's secret. */
export async function getChannels(db: Database): Promise<ChannelsView> {
  const row = await channelsRow(db)
  return view(row ?? { email_to: null, telegram_chat_id: null, webhook_url: null, webhook_secret_enc: null })
}

/** The addresses, each checked, as one comma-separated list; a 422 naming `email.to` otherwise. */
function emailList(raw: string): string {
  const addresses = raw
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '')
  const bad = addresses.find((a) => !EMAIL.test(a))
  if (addresses.length === 0 || bad !== undefined)
    throw fieldError('email.to', `${bad === undefined ? 'give' : `"${bad}" is not`} an email address (several: separate them with commas)`)
  const list = addresses.join(', ')
  if (list.length > 500) throw fieldError('email.to', 'at most 500 characters: fewer addresses, or a mailing list’s one')
  return list
}

const fieldError = (field: string, sentence: string) => new AppError('VALIDATION_ERROR', { fieldErrors: { [field]: [sentence] } })

/**
 * PUT /alert-channels: the whole set, a channel null or absent is cleared. A webhook URL set for the
 * first time (or changed, or `rotate_secret`) gets a new signing secret, sealed under APP_KEY and
 * answered this once; the same URL again keeps its secret, so saving the form never breaks a receiver.
 */
export async function putChannels(db: Database, vault: Vault, production: boolean, body: ChannelsBody): Promise<ChannelsView> {
  const email = body.email ? emailList(body.email.to) : null
  const chatId = body.telegram ? body.telegram.chat_id.trim() : null
  if (chatId !== null && !CHAT_ID.test(chatId))
    throw fieldError(
      'telegram.chat_id',
      'a numeric chat id (a group’s starts with -100) or a channel’s @username (5 to 32 letters, digits or _)',
    )
  // Not trimmed: a URL with whitespace anywhere is refused whole rather than quietly rewritten.
  const url = body.webhook ? body.webhook.url : null
  const problem = url === null ? undefined : callbackUrlProblem(url, production)
  if (problem) throw fieldError('webhook.url', problem)
  return inTransaction(db, async (trx) => {
    const current = await lockChannels(trx)
    const keep = url !== null && url === current?.webhook_url && current.webhook_secret_enc !== null && !body.webhook?.rotate_secret
    const secret = url === null || keep ? undefined : newWebhookSecret()
    const next: ChannelsColumns = {
      email_to: email,
      telegram_chat_id: chatId,
      webhook_url: url,
      webhook_secret_enc: url === null ? null : secret === undefined ? current!.webhook_secret_enc : vault.encrypt(secret),
    }
    await saveChannels(trx, next)
    const saved = view(next)
    return saved.webhook && secret ? { ...saved, webhook: { ...saved.webhook, secret } } : saved
  })
}
