import type { Topup } from '../../db/schema.js'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const rupiah = (n: number) => `Rp ${n.toLocaleString('id-ID')}`

/** The simulator's hosted pay page: what is paid, where, until when, and a Pay button while it can be paid. */
export function payPageHtml(t: Topup & { effective_status: string }, channelName: string, confirm: string): string {
  const payable = t.effective_status === 'pending'
  const rows: [string, string][] = [
    ['Invoice', t.invoice],
    ['Channel', `${channelName} (${t.channel})`],
    ['Amount', rupiah(t.amount)],
    ['Fee', rupiah(t.fee)],
    ['Total to pay', rupiah(t.total)],
    ['Expires at', t.expires_at.toISOString()],
    ['Status', t.effective_status],
  ]
  const action = payable
    ? `<form method="post" action="${escapeHtml(encodeURIComponent(t.reference))}">
  <input type="hidden" name="confirm" value="${escapeHtml(confirm)}">
  <button type="submit" id="pay">Pay ${escapeHtml(rupiah(t.total))}</button>
</form>`
    : `<p id="outcome">${t.status === 'paid' ? 'Paid: the balance has been credited.' : 'This payment link can no longer be paid.'}</p>`
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Pay ${escapeHtml(t.invoice)}</title>
<style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto}th{text-align:left;padding-right:1rem}button{margin-top:1rem;font-size:1.2rem}</style></head>
<body>
<h1>Payment simulator</h1>
<table>
${rows.map(([k, v]) => `<tr><th>${k}</th><td data-field="${k.toLowerCase().replaceAll(' ', '-')}">${escapeHtml(v)}</td></tr>`).join('\n')}
</table>
${action}
</body>
</html>
`
}
