/**
 * The error page's words in Bahasa Indonesia, the console's and the dashboard's (web-error-page.ts): a
 * heading by status, what a code means to the person who met it, the fields' names; the shape
 * web-error-texts.en.ts follows.
 */
export const ERROR_PAGE_ID = {
  back: 'Kembali',
  headings: {
    400: 'Periksa isian',
    401: 'Masuk lagi',
    403: 'Tidak diizinkan',
    404: 'Tidak ditemukan',
    409: 'Tidak bisa sekarang',
    413: 'Terlalu besar',
    422: 'Periksa isian',
    429: 'Terlalu banyak percobaan',
  } as Record<number, string>,
  /** A server fault's heading, and any other refusal's. */
  server: 'Terjadi kesalahan',
  refused: 'Ditolak',
  codes: {
    INVALID_CSRF_TOKEN: 'Formulir ini sudah kedaluwarsa atau tidak berasal dari halaman ini. Muat ulang halaman lalu kirim lagi.',
    THE_ACCOUNT_HAS_BEEN_SUSPENDED:
      'Akun Anda sedang ditangguhkan: halaman tetap bisa dilihat, tetapi tidak ada yang bisa diubah, dan tidak ada yang diubah. Hubungi operator untuk mengaktifkannya kembali.',
    OWNER_ONLY: 'Hanya pemilik akun yang boleh membuka halaman ini.',
    INVITE_NOT_FOUND: 'Tautan undangan ini tidak dikenal, sudah dipakai, atau lewat 72 jam. Minta undangan baru.',
    TOO_MANY_REQUESTS: 'Terlalu banyak percobaan masuk yang gagal. Tunggu beberapa menit lalu coba lagi.',
    TRX_NOT_FOUND: 'Tidak ada transaksi Anda dengan ref_id atau invoice ini.',
    COMPLAINT_NOT_FOUND: 'Tidak ada komplain Anda dengan nomor ini.',
    COMPLAINT_ALREADY_OPEN: 'Barang ini sudah punya komplain yang belum ditutup.',
    COMPLAINT_NOT_ALLOWED: 'Komplain ini tidak bisa diajukan atau dibalas sekarang.',
    DELIVERY_NOT_FOUND: 'Tidak ada pengiriman webhook Anda dengan nomor ini.',
    USER_NOT_FOUND: 'Tidak ada pengguna akun Anda dengan nomor ini.',
    VALIDATION_ERROR: 'Ada isian yang perlu diperbaiki:',
    DUPLICATE: 'Sudah ada:',
    INVALID_STATE: 'Tidak bisa dilakukan sekarang.',
    NOT_FOUND: 'Halaman tidak ditemukan.',
    SERVICE_UNAVAILABLE: 'Layanan sedang tidak tersedia. Coba lagi sebentar lagi.',
    INTERNAL_ERROR: 'Terjadi kesalahan di layanan kami. Coba lagi.',
  } as Record<string, string>,
  fields: {
    email: 'Email',
    password: 'Kata sandi',
    current_password: 'Kata sandi sekarang',
    password_again: 'Ulangi kata sandi',
    callback_url: 'URL callback',
    webhook_enabled: 'Kirim webhook',
    webhook_secret: 'Secret',
    code: 'Kode',
    code_or_password: 'Kode atau kata sandi',
    reason: 'Alasan',
    message: 'Pesan',
  } as Record<string, string>,
}
export type ErrorPageTexts = typeof ERROR_PAGE_ID
