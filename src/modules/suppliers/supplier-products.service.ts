import type { Database } from '../../db/database.js'
import { AppError } from '../../errors.js'
import { listSupplierChanges, listSupplierProducts, providerExists, type ProductFilter } from './supplier-products.queries.js'

// A code no provider has is a 404, never an empty page that reads as "nothing listed yet".
async function knownProvider(db: Database, code: string) {
  if (!(await providerExists(db, code))) throw new AppError('PROVIDER_NOT_FOUND')
}

export async function supplierProducts(db: Database, provider: string, filter: ProductFilter) {
  await knownProvider(db, provider)
  return listSupplierProducts(db, provider, filter)
}

export async function supplierChanges(db: Database, provider: string, filter: { kind?: string; page: number; perPage: number }) {
  await knownProvider(db, provider)
  return listSupplierChanges(db, provider, filter)
}
