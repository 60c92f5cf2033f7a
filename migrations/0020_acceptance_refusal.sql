-- The one-statement acceptance (src/platform/generation/accept-statement.ts) writes the job first and charges
-- last, so the account row is locked only for the end of the statement; a charge the balance does not cover
-- must then undo the whole statement, which only an error does. The error code names that refusal.
CREATE FUNCTION charged_or_refused(balance_after bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  IF balance_after IS NULL THEN
    RAISE EXCEPTION 'the balance does not cover the charge' USING ERRCODE = 'RS402';
  END IF;
  RETURN balance_after;
END
$$;
