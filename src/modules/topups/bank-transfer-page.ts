import type { Topup } from '../../db/schema.js'
import { ICON_HREF } from '../../http/icon.js'
import { viewHelpers } from '../../http/page-format.js'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

// The pay page's look (pay-page.ts), with the total in large digits and a copy button per value.
const STYLE = `*{box-sizing:border-box}
body{margin:0;padding:2rem 1rem;font:15px/1.45 system-ui,sans-serif;color:#1d232a;background:#f4f6f8}
main{max-width:28rem;margin:0 auto;background:#fff;border:1px solid #dde3e9;border-radius:6px;padding:1.2rem}
.brand{margin:0;color:#5b6670;font-size:.85rem;text-transform:uppercase;letter-spacing:.04em}
.total{display:flex;align-items:center;justify-content:space-between;gap:.6rem;margin:.4rem 0 .2rem}
.total strong{font-size:2.2rem;letter-spacing:.02em;white-space:nowrap}
.code{color:#1f5f99;text-decoration:underline}
dl{margin:1rem 0 0}dl div{display:flex;justify-content:space-between;align-items:center;gap:.6rem;padding:.45rem 0;border-bottom:1px solid #eef1f4}
dt{color:#5b6670;white-space:nowrap}dd{margin:0;text-align:right;overflow-wrap:anywhere;display:flex;align-items:center;gap:.5rem}
.muted{color:#5b6670;font-size:.85rem}
.tag{display:inline-block;padding:0 .4rem;border-radius:3px;background:#e8edf2;font-size:.85rem}
.tag.paid{background:#dff3e4}.tag.expired,.tag.failed{background:#fbe3e3}
button.copy{padding:.15rem .5rem;font:inherit;font-size:.8rem;color:#1f5f99;background:#fff;border:1px solid #1f5f99;border-radius:4px;cursor:pointer;white-space:nowrap}
button.simulate{width:100%;margin-top:1rem;padding:.6rem;font:inherit;font-weight:600;color:#fff;background:#1f5f99;border:1px solid #1f5f99;border-radius:4px;cursor:pointer}
.note{margin:1rem 0 0;padding:.6rem .8rem;border-radius:6px;background:#fff8e1;border:1px solid #f0d58a}
#outcome{margin:1rem 0 0;padding:.6rem .8rem;border-radius:6px;background:#e6f4ea;border:1px solid #9ccfa8}
#outcome.closed{background:#fdecec;border-color:#e5a3a3}
hr{border:0;border-top:1px solid #eef1f4;margin:1.2rem 0 .8rem}`

// Copies the button's data-copy; says so on the button for a moment.
const SCRIPT = `document.querySelectorAll('button.copy').forEach(function(b){b.addEventListener('click',function(){
var t=b.getAttribute('data-copy'),l=b.textContent;navigator.clipboard.writeText(t).then(function(){b.textContent='Tersalin ✓';setTimeout(function(){b.textContent=l},1500)})})})`

const STATUS_ID: Record<string, string> = {
  pending: 'menunggu transfer',
  paid: 'lunas',
  expired: 'kedaluwarsa',
  failed: 'gagal',
  review: 'diperiksa',
}

const copyButton = (value: string, what: string) =>
  `<button type="button" class="copy" data-copy="${escapeHtml(value)}" aria-label="Salin ${escapeHtml(what)}">Salin</button>`

/**
 * A bank-transfer top-up's instructions (docs/design.md §7b), Bahasa Indonesia first: the exact total
 * (its last digits the unique code), the account, the deadline; outside production a button that has
 * the Moota simulator push the transfer.
 */
export function bankTransferPageHtml(t: Topup & { effective_status: string }, timeZone: string, simulate?: { confirm: string }): string {
  const { rp, time } = viewHelpers(timeZone)
  const status = t.effective_status
  const code = String(t.unique_code)
  const totalText = rp(t.total)
  // The code's digits marked inside the total (Rp 100.<u>123</u>), where they are its last digits: a round amount.
  const marked =
    (t.total - t.unique_code!) % 1000 === 0
      ? escapeHtml(totalText.slice(0, -code.length)) + `<span class="code">${escapeHtml(totalText.slice(-code.length))}</span>`
      : escapeHtml(totalText)
  const expiry = `<time datetime="${t.expires_at.toISOString()}">${escapeHtml(time(t.expires_at))}</time> <span class="muted">${escapeHtml(timeZone)}</span>`
  const rows: [string, string, string][] = [
    ['Bank', 'bank', escapeHtml(t.pay_bank ?? '')],
    [
      'Nomor rekening',
      'account-number',
      `<span>${escapeHtml(t.pay_account_number ?? '')}</span>${copyButton(t.pay_account_number ?? '', 'nomor rekening')}`,
    ],
    ['Atas nama', 'account-name', escapeHtml(t.pay_account_name ?? '')],
    ['Kode unik', 'unique-code', escapeHtml(code)],
    ['Invoice', 'invoice', escapeHtml(t.invoice)],
    ['Bayar sebelum', 'expires-at', expiry],
    ['Status', 'status', `<span class="tag ${escapeHtml(status)}">${escapeHtml(STATUS_ID[status] ?? status)}</span>`],
  ]
  const outcome =
    t.status === 'paid'
      ? '<p id="outcome">Lunas: saldo sudah ditambahkan. <span class="muted">Paid: the balance has been credited.</span></p>'
      : status === 'pending'
        ? ''
        : '<p id="outcome" class="closed">Batas waktu lewat. Sudah transfer? Dana tetap masuk bila jumlahnya persis dalam 7 hari; selain itu hubungi admin. <span class="muted">Expired: a transfer of the exact total within 7 days is still credited.</span></p>'
  const simulateForm =
    simulate && t.status !== 'paid'
      ? `<form method="post" action="${escapeHtml(encodeURIComponent(t.reference))}/simulate">
  <input type="hidden" name="confirm" value="${escapeHtml(simulate.confirm)}">
  <button type="submit" class="simulate" id="simulate">Simulate transfer of ${escapeHtml(totalText)}</button>
</form>
<p class="muted">Not in production: Moota’s push is simulated, signed, to this service’s own hook; no money moves.</p>`
      : ''
  return `<!doctype html>
<html lang="id">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Transfer ${escapeHtml(totalText)} · ${escapeHtml(t.invoice)}</title>
<link rel="icon" href="${ICON_HREF}">
<style>${STYLE}</style></head>
<body>
<main>
<p class="brand">Top up saldo · transfer bank</p>
<p>Transfer <b>tepat</b> sejumlah:</p>
<div class="total"><strong data-field="total">${marked}</strong>${copyButton(String(t.total), 'jumlah')}</div>
<p class="muted">Termasuk kode unik ${escapeHtml(code)} (ikut masuk ke saldo). Jumlah yang berbeda tidak terbaca otomatis.</p>
<dl>
${rows.map(([label, field, html]) => `<div><dt>${label}</dt><dd data-field="${field}">${html}</dd></div>`).join('\n')}
</dl>
${outcome}
${status === 'pending' ? '<p class="note">Saldo bertambah otomatis beberapa menit setelah dana masuk ke rekening di atas.</p>' : ''}
${simulateForm}
<hr>
<p class="muted" lang="en">Transfer exactly ${escapeHtml(totalText)} to ${escapeHtml(t.pay_bank ?? '')} ${escapeHtml(t.pay_account_number ?? '')} (${escapeHtml(t.pay_account_name ?? '')}) before the time above. The last digits, ${escapeHtml(code)}, tell us it is yours and are credited too; another amount is not matched automatically.</p>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`
}
