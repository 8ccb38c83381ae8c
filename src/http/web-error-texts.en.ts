import type { ErrorPageTexts } from './web-error-texts.id.js'

/** The error page's words in English: the same keys as web-error-texts.id.ts. */
export const ERROR_PAGE_EN: ErrorPageTexts = {
  back: 'Back',
  headings: {
    400: 'Check the form',
    401: 'Sign in again',
    403: 'Not allowed',
    404: 'Not found',
    409: 'Not possible now',
    413: 'Too large',
    422: 'Check the form',
    429: 'Too many tries',
  },
  server: 'Something went wrong',
  refused: 'Refused',
  codes: {
    INVALID_CSRF_TOKEN: 'This form has expired or did not come from this page. Reload the page and send it again.',
    THE_ACCOUNT_HAS_BEEN_SUSPENDED:
      'Your account is suspended: you can still see every page, but nothing can be changed, and nothing was. Contact the operator to have it resumed.',
    OWNER_ONLY: 'Only the account owner may open this page.',
    INVITE_NOT_FOUND: 'This invite link is unknown, already used or past its 72 hours. Ask for a new invite.',
    TOO_MANY_REQUESTS: 'Too many failed sign-ins. Wait a few minutes and try again.',
    TRX_NOT_FOUND: 'None of your transactions has this ref_id or invoice.',
    COMPLAINT_NOT_FOUND: 'None of your complaints has this number.',
    COMPLAINT_ALREADY_OPEN: 'This item has a complaint that is not closed yet.',
    COMPLAINT_NOT_ALLOWED: 'This complaint cannot be opened or answered now.',
    DELIVERY_NOT_FOUND: 'None of your webhook deliveries has this number.',
    USER_NOT_FOUND: 'No user of your account has this number.',
    VALIDATION_ERROR: 'Some fields need fixing:',
    DUPLICATE: 'Already there:',
    INVALID_STATE: 'Not possible now.',
    NOT_FOUND: 'No such page.',
    SERVICE_UNAVAILABLE: 'The service is unavailable right now. Try again in a moment.',
    INTERNAL_ERROR: 'Something went wrong on our side. Try again.',
  },
  fields: {
    email: 'Email',
    password: 'Password',
    current_password: 'Current password',
    password_again: 'Repeat the password',
    callback_url: 'Callback URL',
    webhook_enabled: 'Send webhooks',
    webhook_secret: 'Secret',
    reason: 'Reason',
    message: 'Message',
  },
}
