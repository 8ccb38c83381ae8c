-- A stock lock that is no longer usable, as its code: for a purchase that presents it and for a release.
CREATE OR REPLACE FUNCTION refuse_unusable_lock(p_status text, p_expires_at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_status = 'used' THEN PERFORM raise_app('LOCK_ALREADY_USED'); END IF;
  IF p_status = 'released' THEN PERFORM raise_app('LOCK_RELEASED'); END IF;
  IF p_status = 'expired' OR p_expires_at <= clock_timestamp() THEN PERFORM raise_app('LOCK_EXPIRED'); END IF;
END
$$;
