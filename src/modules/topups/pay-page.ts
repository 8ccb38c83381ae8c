import type { Topup } from '../../db/schema.js'
import { viewHelpers } from '../../http/page-format.js'
import { ICON_HREF } from '../../http/icon.js'

// Who pays here is a reseller coming from the dashboard: the page speaks its default language
// (Bahasa Indonesia, docs/design.md §13), labels its time WIB, and leads back to the top-up.
const STATUS_WORDS: Record<string, string> = {
  pending: 'menunggu',
  paid: 'dibayar',
  expired: 'kedaluwarsa',
  failed: 'gagal',
  review: 'diperiksa operator',
}
const ZONE_LABELS: Record<string, string> = {
  'Asia/Jakarta': 'WIB',
  'Asia/Pontianak': 'WIB',
  'Asia/Makassar': 'WITA',
  'Asia/Jayapura': 'WIT',
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

// The console's look (its colours, a card, Rupiah kept on one line), in one small page with no script.
const STYLE = `*{box-sizing:border-box}
body{margin:0;padding:2.5rem 1rem;font:15px/1.45 system-ui,sans-serif;color:#1d232a;background:#f4f6f8}
main{max-width:26rem;margin:0 auto;background:#fff;border:1px solid #dde3e9;border-radius:6px;padding:1.2rem}
.brand{margin:0;color:#5b6670;font-size:.85rem;text-transform:uppercase;letter-spacing:.04em}
h1{margin:.2rem 0 1rem;font-size:1.6rem;white-space:nowrap}
dl{margin:0}dl div{display:flex;justify-content:space-between;gap:1rem;padding:.45rem 0;border-bottom:1px solid #eef1f4}
dt{color:#5b6670;white-space:nowrap}dd{margin:0;text-align:right;overflow-wrap:anywhere}dd.money{white-space:nowrap}
dl .total{font-weight:700;border-bottom:0}dl .total dt{color:inherit}
.muted{color:#5b6670;font-size:.85rem}
.tag{display:inline-block;padding:0 .4rem;border-radius:3px;background:#e8edf2;font-size:.85rem}
.tag.paid{background:#dff3e4}.tag.expired,.tag.failed{background:#fbe3e3}
button{width:100%;margin-top:1rem;padding:.6rem;font:inherit;font-size:1.1rem;font-weight:600;color:#fff;background:#1f5f99;border:1px solid #1f5f99;border-radius:4px;cursor:pointer;white-space:nowrap}
#outcome{margin:1rem 0 0;padding:.6rem .8rem;border-radius:6px;background:#e6f4ea;border:1px solid #9ccfa8}
#outcome.closed{background:#fdecec;border-color:#e5a3a3}
.back{display:block;margin-top:1rem;text-align:center;color:#1f5f99}`

/**
 * The simulator's hosted pay page: what is paid, where, until when (on the console's clock,
 * LEADERBOARD_TZ), and a Pay button while it can be paid.
 */
export function payPageHtml(t: Topup & { effective_status: string }, channelName: string, confirm: string, timeZone: string): string {
  const { rp, time } = viewHelpers(timeZone)
  const payable = t.effective_status === 'pending'
  const expiry = `<time datetime="${t.expires_at.toISOString()}">${escapeHtml(time(t.expires_at))}</time> <span class="muted">${escapeHtml(ZONE_LABELS[timeZone] ?? timeZone)}</span>`
  const status = STATUS_WORDS[t.effective_status] ?? t.effective_status
  // [label, field, html, class]: values escaped here, the expiry and status carry their own markup.
  const rows: [string, string, string, string][] = [
    ['Invoice', 'invoice', escapeHtml(t.invoice), ''],
    ['Metode bayar', 'channel', escapeHtml(`${channelName} (${t.channel})`), ''],
    ['Jumlah top up', 'amount', escapeHtml(rp(t.amount)), 'money'],
    ['Biaya', 'fee', escapeHtml(rp(t.fee)), 'money'],
    ['Total bayar', 'total-to-pay', escapeHtml(rp(t.total)), 'money'],
    ['Berlaku sampai', 'expires-at', expiry, ''],
    ['Status', 'status', `<span class="tag ${escapeHtml(t.effective_status)}">${escapeHtml(status)}</span>`, ''],
  ]
  const action = payable
    ? `<form method="post" action="${escapeHtml(encodeURIComponent(t.reference))}">
  <input type="hidden" name="confirm" value="${escapeHtml(confirm)}">
  <button type="submit" id="pay">Bayar ${escapeHtml(rp(t.total))}</button>
</form>`
    : t.status === 'paid'
      ? '<p id="outcome">Dibayar: saldo sudah bertambah.</p>'
      : '<p id="outcome" class="closed">Tautan pembayaran ini sudah tidak bisa dibayar.</p>'
  return `<!doctype html>
<html lang="id">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bayar ${escapeHtml(t.invoice)}</title>
<link rel="icon" href="${ICON_HREF}">
<style>${STYLE}</style></head>
<body>
<main>
<p class="brand">Simulator pembayaran</p>
<h1>${escapeHtml(rp(t.total))}</h1>
<dl>
${rows.map(([label, field, html, cls]) => `<div${field === 'total-to-pay' ? ' class="total"' : ''}><dt>${label}</dt><dd data-field="${field}"${cls ? ` class="${cls}"` : ''}>${html}</dd></div>`).join('\n')}
</dl>
${action}
<p class="muted">Gateway uji: tidak ada uang yang berpindah. Membayar menambah saldo reseller sebesar jumlah top up.</p>
<a class="back" id="back-to-dashboard" href="/dashboard/transactions/${escapeHtml(encodeURIComponent(t.invoice))}">Kembali ke dasbor</a>
</main>
</body>
</html>
`
}
