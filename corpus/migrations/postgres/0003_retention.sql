-- Retention: the runner resumes live jobs and gc prunes old stages and
-- final jobs by these.
CREATE INDEX idx_jobs_live ON jobs (created_at, id) WHERE state IN ('queued', 'running');
CREATE INDEX idx_deliberation_stages_created ON deliberation_stages (created_at);
