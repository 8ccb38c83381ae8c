// A program of its own (see prepareEmbeddedApart in ./data-dir.ts): creates the embedded database in
// the directory given and migrates it, then exits. A first start's initdb and migrations grow PGlite's
// WebAssembly memory to ~800 MB, which the process running them never gives back; done here, the
// service opens a ready database and idles at what a second start does.
import { openPGlite } from './database.js'
import { migrateToLatest } from './migrate.js'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: embedded-first-start.js <pglite data directory>')
const database = await openPGlite({ dataDir })
try {
  await migrateToLatest(database.db)
} finally {
  await database.close()
}
