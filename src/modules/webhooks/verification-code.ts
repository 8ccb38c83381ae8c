// Receiver-side verification of both signature schemes, as GET /v1/webhook/docs hands it out.
// The Node and Python versions are run against real deliveries by the tests.

export const NODE = `const crypto = require('node:crypto')

// rawBody: the request body exactly as received (a string or Buffer), before any JSON parsing.
function verifyXSignature(rawBody, headers, secret) {
  const body = JSON.parse(rawBody)
  const d = body.data
  const signed = { 'webhook.test': 'test', 'order.item.sent': 'item.sent', 'complaint.updated': 'complaint' }
  const status = signed[body.event] || d.status
  const expected = crypto.createHash('sha256').update(d.ref_id + ':' + d.invoice + ':' + status + ':' + secret).digest('hex')
  const given = String(headers['x-signature'] || '')
  return given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))
}

function verifyStandardWebhook(rawBody, headers, secret, toleranceSeconds = 300) {
  const id = headers['webhook-id']
  const timestamp = headers['webhook-timestamp']
  if (!id || !timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = 'v1,' + crypto.createHmac('sha256', key).update(id + '.' + timestamp + '.' + rawBody).digest('base64')
  return String(headers['webhook-signature'] || '').split(' ').some((s) => s.length === expected.length && crypto.timingSafeEqual(Buffer.from(s), Buffer.from(expected)))
}

module.exports = { verifyXSignature, verifyStandardWebhook }
`

export const PHP = `<?php
// $raw: file_get_contents('php://input'); $secret: your whsec_… secret.
function verify_x_signature(string $raw, string $secret): bool {
    $body = json_decode($raw, true);
    $d = $body['data'];
    $signed = ['webhook.test' => 'test', 'order.item.sent' => 'item.sent', 'complaint.updated' => 'complaint'];
    $status = $signed[$body['event']] ?? $d['status'];
    $expected = hash('sha256', $d['ref_id'] . ':' . $d['invoice'] . ':' . $status . ':' . $secret);
    return hash_equals($expected, $_SERVER['HTTP_X_SIGNATURE'] ?? '');
}

function verify_standard_webhook(string $raw, string $secret, int $tolerance = 300): bool {
    $id = $_SERVER['HTTP_WEBHOOK_ID'] ?? '';
    $ts = $_SERVER['HTTP_WEBHOOK_TIMESTAMP'] ?? '';
    if ($id === '' || $ts === '' || abs(time() - (int) $ts) > $tolerance) return false;
    $key = base64_decode(preg_replace('/^whsec_/', '', $secret));
    $expected = 'v1,' . base64_encode(hash_hmac('sha256', $id . '.' . $ts . '.' . $raw, $key, true));
    foreach (explode(' ', $_SERVER['HTTP_WEBHOOK_SIGNATURE'] ?? '') as $given) {
        if (hash_equals($expected, $given)) return true;
    }
    return false;
}
`

export const PYTHON = `import base64, hashlib, hmac, json, time

# raw: the request body bytes exactly as received; headers: a case-insensitive mapping.
def verify_x_signature(raw: bytes, headers, secret: str) -> bool:
    body = json.loads(raw)
    d = body["data"]
    status = {"webhook.test": "test", "order.item.sent": "item.sent", "complaint.updated": "complaint"}.get(body["event"], d["status"])
    expected = hashlib.sha256(f"{d['ref_id']}:{d['invoice']}:{status}:{secret}".encode()).hexdigest()
    return hmac.compare_digest(expected, headers.get("x-signature", ""))

def verify_standard_webhook(raw: bytes, headers, secret: str, tolerance: int = 300) -> bool:
    msg_id, ts = headers.get("webhook-id", ""), headers.get("webhook-timestamp", "")
    if not msg_id or not ts or abs(time.time() - int(ts)) > tolerance:
        return False
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    mac = hmac.new(key, f"{msg_id}.{ts}.".encode() + raw, hashlib.sha256).digest()
    expected = "v1," + base64.b64encode(mac).decode()
    return any(hmac.compare_digest(expected, given) for given in headers.get("webhook-signature", "").split(" "))
`
