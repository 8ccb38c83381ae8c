import { sql, type Kysely } from 'kysely'

// Each account's count of webhook deliveries, so the unfiltered delivery list answers its total from
// one row (a whale's page counted 10,000 index entries). A row of its own, off the account row that
// purchases lock; kept by statement triggers, whatever inserts or deletes (relay, test send,
// retention). The function here is a first version (webhooks.sql keeps it): the triggers need it,
// and they must exist before the backfill so an older process's relay in a rolling deploy is counted.
const statements = [
  `CREATE TABLE webhook_delivery_totals (
    account_id bigint PRIMARY KEY,
    deliveries bigint NOT NULL
  )`,
  `CREATE FUNCTION count_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'TRUNCATE' THEN
      DELETE FROM webhook_delivery_totals;
    ELSIF TG_OP = 'INSERT' THEN
      INSERT INTO webhook_delivery_totals AS t (account_id, deliveries)
      SELECT account_id, count(*) FROM added GROUP BY account_id ORDER BY account_id
      ON CONFLICT (account_id) DO UPDATE SET deliveries = t.deliveries + EXCLUDED.deliveries;
    ELSE
      INSERT INTO webhook_delivery_totals AS t (account_id, deliveries)
      SELECT account_id, -count(*) FROM removed GROUP BY account_id ORDER BY account_id
      ON CONFLICT (account_id) DO UPDATE SET deliveries = t.deliveries + EXCLUDED.deliveries;
    END IF;
    RETURN NULL;
  END
  $$`,
  // Holds off every insert and delete until the migration commits: the backfill counts what the
  // triggers will not.
  `LOCK TABLE webhook_deliveries IN SHARE ROW EXCLUSIVE MODE`,
  `CREATE TRIGGER webhook_deliveries_added AFTER INSERT ON webhook_deliveries
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_webhook_deliveries()`,
  `CREATE TRIGGER webhook_deliveries_removed AFTER DELETE ON webhook_deliveries
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION count_webhook_deliveries()`,
  `CREATE TRIGGER webhook_deliveries_truncated AFTER TRUNCATE ON webhook_deliveries
    FOR EACH STATEMENT EXECUTE FUNCTION count_webhook_deliveries()`,
  `INSERT INTO webhook_delivery_totals (account_id, deliveries)
   SELECT account_id, count(*) FROM webhook_deliveries GROUP BY account_id`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
