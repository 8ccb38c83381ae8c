-- The time a catalog change is stamped with (items.updated_at), taken after the transaction has its
-- id: a delta cursor from pg_current_snapshot() (sync-clock.ts) then bounds every change still in flight.
CREATE OR REPLACE FUNCTION catalog_change_time() RETURNS timestamptz LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_current_xact_id();
  RETURN clock_timestamp();
END
$$;
