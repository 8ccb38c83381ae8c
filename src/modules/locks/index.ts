// locks: stock locks a reseller holds before buying (create_lock() in locks.sql), and their sweeper.
export { lockRoutes } from './locks.routes.js'
export { sweepExpiredLocks } from './locks.service.js'
export { listActiveLocks, releaseLock } from './locks.service.js'
