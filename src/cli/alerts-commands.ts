import { clean, str, type Command, type Flags } from './flags.js'

// `none` (or a blank) switches a channel off, as null does in the PUT.
const set = (f: Flags, name: string) => {
  const v = str(f[name])
  return v === undefined || v.trim() === '' || v === 'none' ? undefined : v
}

/** Operator alerts (docs/design.md §11e): the alerts kept, and where they go (the owner sets it). */
export const ALERT_COMMANDS: Record<string, Command> = {
  'alerts:list': {
    usage: '[--open true|false] [--kind KIND] [--page N] (newest first, each with its deliveries)',
    example: 'alerts:list --open true',
    method: 'GET',
    path: () => '/alerts',
  },
  'alerts:channels': { usage: '(where alerts go; never the webhook secret)', method: 'GET', path: () => '/alert-channels' },
  'alerts:set-channels': {
    usage: '[--email "A, B"] [--telegram CHAT_ID] [--webhook URL] [--rotate-secret] (all at once: one left out is switched off)',
    example: 'alerts:set-channels --email ops@tokomaju.example --telegram -1001234567890 --webhook https://ops.tokomaju.example/alerts',
    method: 'PUT',
    path: () => '/alert-channels',
    body: (f) => {
      const to = set(f, 'email')
      const chatId = set(f, 'telegram')
      const url = set(f, 'webhook')
      return {
        email: to ? { to } : null,
        telegram: chatId ? { chat_id: chatId } : null,
        webhook: url ? clean({ url, rotate_secret: f['rotate-secret'] === true || f['rotate-secret'] === 'true' || undefined }) : null,
      }
    },
  },
}
