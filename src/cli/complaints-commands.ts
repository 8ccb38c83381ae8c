import { clean, FlagError, str, type Command } from './flags.js'

/** Complaints, the operator's side (docs/design.md §14): the queue, one complaint, and the steps that answer or close it. */
export const COMPLAINT_COMMANDS: Record<string, Command> = {
  'complaints:list': {
    usage:
      '[--view queue|all] [--status open|answered|closed] [--reason not_received|wrong_item|invalid_code|other] [--account-id N] [--page N]',
    example: 'complaints:list --status open',
    method: 'GET',
    path: () => '/complaints',
  },
  'complaints:show': { usage: 'ID (its thread, order, line and upstream request)', method: 'GET', path: ([id]) => `/complaints/${id}` },
  'complaints:reply': {
    usage: 'ID --message TEXT (answered)',
    method: 'POST',
    path: ([id]) => `/complaints/${id}/reply`,
    body: (f) => ({ message: str(f.message) }),
  },
  'complaints:resend': {
    usage: 'ID --mode auto|manual [--license TEXT] [--note TEXT] (auto: a license from stock; manual: the one typed)',
    example: 'complaints:resend 12 --mode manual --license VOUCHER-0003 --note "replacement from the publisher"',
    method: 'POST',
    path: ([id]) => `/complaints/${id}/resend`,
    body: (f) => {
      const mode = str(f.mode) ?? 'auto'
      if (mode === 'auto') return { mode }
      if (mode !== 'manual') throw new FlagError('--mode: auto or manual')
      if (str(f.license) === undefined) throw new FlagError('--license: the replacement to send, with --mode manual')
      return clean({ mode, product_license: str(f.license), note: str(f.note) })
    },
  },
  'complaints:recheck': {
    usage: 'ID (asks the provider about the line; never a new order)',
    method: 'POST',
    path: ([id]) => `/complaints/${id}/recheck`,
  },
  'complaints:refund': {
    usage: 'ID [--message TEXT] (what is left of the line, once; finance, admin or owner)',
    method: 'POST',
    path: ([id]) => `/complaints/${id}/refund`,
    body: (f) => clean({ message: str(f.message) }),
  },
  'complaints:reject': {
    usage: 'ID --reason TEXT',
    method: 'POST',
    path: ([id]) => `/complaints/${id}/reject`,
    body: (f) => ({ reason: str(f.reason) }),
  },
}
