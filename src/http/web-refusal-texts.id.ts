/**
 * A refused form's sentences in Bahasa Indonesia, the console's and the dashboard's (web-refusals.ts says
 * the services' refusals with these): said next to the field, with amounts as Rupiah; the shape
 * web-refusal-texts.en.ts follows.
 */
export const FORMS_ID = {
  say: {
    amountMin: (min: string, channel: string) => `Minimal ${min} untuk ${channel}.`,
    amountMax: (max: string, channel: string) => `Maksimal ${max} untuk ${channel}.`,
    amountWithFee: (max: string) => `Jumlah ditambah biaya paling banyak ${max}.`,
    wholeRupiah: 'Tulis jumlah Rupiah dengan angka saja, misalnya 100000 atau 100.000.',
    channel: 'Pilih salah satu metode bayar yang tersedia.',
    codesTaken: 'Semua kode unik untuk jumlah ini sedang terpakai. Coba lagi sebentar lagi, atau pilih jumlah lain.',
    required: 'Wajib diisi.',
    notAnAddress: (entry: string) => `"${entry}" bukan alamat IP atau CIDR. Contoh: 203.0.113.7 atau 203.0.113.0/24.`,
    urlSpaces: 'URL tidak boleh berisi spasi atau karakter kontrol; tulis spasi sebagai %20.',
    urlBackslash: 'URL tidak boleh berisi garis miring terbalik (\\); pakai / di path.',
    urlAbsolute: 'Tulis URL lengkap, diawali https://, misalnya https://toko.example/webhook.',
    urlHttps: 'URL harus memakai https.',
    urlHttpsLocal: 'URL harus memakai https (http hanya untuk localhost).',
    urlCredentials:
      'Jangan sertakan nama pengguna atau kata sandi (user:pass@) di URL; periksa keaslian panggilan kami lewat header tanda tangannya.',
    urlPublic: 'URL harus menuju alamat publik yang bisa dijangkau dari internet.',
    needsUrl: 'Isi URL callback dulu sebelum mengaktifkan webhook.',
    needsSecret: 'Buat secret dulu (tombol "Buat secret baru") sebelum mengaktifkan webhook.',
    email: 'Tulis alamat email yang lengkap, misalnya nama@toko.example.',
    userTaken: 'Email ini sudah menjadi pengguna akun ini.',
    tooShort: (n: number) => `Minimal ${n} karakter.`,
    tooLong: (n: number) => `Maksimal ${n} karakter.`,
    repeat: 'Harus sama persis dengan kata sandi baru.',
    current: 'Bukan kata sandi Anda sekarang.',
    // The schemas' bounds and types, as the API says them (http/error-handler.ts), and the console's own checks.
    atLeast: (n: string) => `Minimal ${n}.`,
    atMost: (n: string) => `Maksimal ${n}.`,
    moreThan: (n: string) => `Harus lebih dari ${n}.`,
    lessThan: (n: string) => `Harus kurang dari ${n}.`,
    oneOf: (values: string) => `Pilih salah satu: ${values}.`,
    wholeNumber: 'Tulis bilangan bulat dengan angka saja, misalnya 10.',
    number: 'Tulis angka, misalnya 2.5 atau -3.',
    lengthBetween: (min: number, max: number) => `Panjangnya ${min} sampai ${max} karakter.`,
    decimals: (n: number) => `Paling banyak ${n} angka di belakang koma.`,
    notInUse: 'Sudah dipakai.',
    format: 'Tulisannya belum sesuai bentuk yang diminta.',
    other: 'Isian ini belum bisa diterima. Periksa lagi lalu kirim ulang.',
    /** What the console adds after a sentence the table does not know yet: the service's own words. */
    asSent: (sentence: string) => `(${sentence})`,
  },
  /** Above a form sent back, so a person scrolled past it still sees why. */
  summary: 'Periksa isian yang ditandai merah di bawah.',
}
export type FormTexts = typeof FORMS_ID
