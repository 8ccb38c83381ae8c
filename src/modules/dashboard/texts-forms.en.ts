import type { FormTexts } from './texts-forms.id.js'

/** A refused form's sentences in English: the same keys as texts-forms.id.ts. */
export const FORMS_EN: FormTexts = {
  say: {
    amountMin: (min: string, channel: string) => `At least ${min} on ${channel}.`,
    amountMax: (max: string, channel: string) => `At most ${max} on ${channel}.`,
    amountWithFee: (max: string) => `The amount with its fee can be at most ${max}.`,
    wholeRupiah: 'Write the amount in Rupiah with digits only, like 100000 or 100.000.',
    channel: 'Choose one of the available payment methods.',
    codesTaken: 'Every unique code for this amount is in use right now. Try again shortly, or choose another amount.',
    required: 'Required.',
    notAnAddress: (entry: string) => `"${entry}" is not an IP address or CIDR. For example: 203.0.113.7 or 203.0.113.0/24.`,
    urlSpaces: 'The URL must not contain spaces or control characters; write a space as %20.',
    urlBackslash: 'The URL must not contain backslashes (\\); use / in the path.',
    urlAbsolute: 'Write the whole URL, starting with https://, like https://shop.example/webhook.',
    urlHttps: 'The URL must use https.',
    urlHttpsLocal: 'The URL must use https (http only for localhost).',
    urlCredentials: 'Leave the user name and password (user:pass@) out of the URL; verify our calls by their signature headers instead.',
    urlPublic: 'The URL must reach a public address on the internet.',
    needsUrl: 'Fill in the callback URL before turning webhooks on.',
    needsSecret: 'Make a secret first ("New secret") before turning webhooks on.',
    email: 'Write a whole email address, like name@shop.example.',
    userTaken: 'This email is already a user of this account.',
    tooShort: (n: number) => `At least ${n} characters.`,
    tooLong: (n: number) => `At most ${n} characters.`,
    repeat: 'Must be exactly the new password again.',
    current: 'This is not your current password.',
    other: 'This cannot be accepted yet. Check it and send again.',
  },
  summary: 'Check the fields marked in red below.',
}
