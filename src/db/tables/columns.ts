import type { ColumnType, Generated } from 'kysely'

/** Column shapes shared by the tables. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
export type Id = Generated<number>
