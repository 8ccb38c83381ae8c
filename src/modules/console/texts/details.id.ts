/**
 * The services' details an operator meets on the console's error page (`order is cancelled`), in Bahasa
 * Indonesia (../refusals.ts matches them); in English the page shows the service's own words.
 */
export const DETAILS_ID = {
  providerExists: (code: string) => `Provider ${code} sudah ada.`,
  categoryExists: (name: string) => `Kategori ${name} sudah ada.`,
  categoryHasProducts: 'Kategori ini masih berisi produk: pindahkan atau hapus dulu produknya.',
  productNameTaken: 'Kategori ini sudah punya produk dengan nama itu.',
  productHasItems: 'Produk ini masih punya item: nonaktifkan itemnya saja.',
  orderIs: (status: string) => `Pesanan ini berstatus ${status}.`,
  lineIs: (state: string) => `Baris pesanan ini berstatus ${state}.`,
  requestIs: (status: string) => `Permintaan ke provider ini berstatus ${status}.`,
  requestLeftReview: 'Permintaan ini sudah keluar dari peninjauan sementara itu.',
  noBalance: (kind: string) => `Provider ${kind} tidak melaporkan saldo.`,
  noBankMutation: (id: string) => `Tidak ada mutasi bank ${id}.`,
  topupInReview: 'Top-up ini menunggu peninjauan operator.',
}
