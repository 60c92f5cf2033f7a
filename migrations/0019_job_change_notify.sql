-- Every change to what a job read shows notifies the job events channel (payload: the job id), whichever code
-- made it: API processes drop their cached copy of the job (src/platform/jobs/job-cache.ts) and progress streams
-- re-read. A lease renewal alone changes nothing a client sees and stays silent. Notifications of one
-- transaction with the same payload are delivered once, so a transition that also adds an event sends one.
CREATE FUNCTION notify_job_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('reelsmith_job_events', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END
$$;

CREATE TRIGGER jobs_notify_change AFTER UPDATE ON jobs FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'lease_expires_at') IS DISTINCT FROM (to_jsonb(NEW) - 'lease_expires_at'))
  EXECUTE FUNCTION notify_job_change();

CREATE TRIGGER jobs_notify_delete AFTER DELETE ON jobs FOR EACH ROW EXECUTE FUNCTION notify_job_change();
