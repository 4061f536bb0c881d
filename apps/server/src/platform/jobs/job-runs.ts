import type { SqlExecutor } from '../db/client.ts';

/** A job that took its process down this many times is quarantined, never run again. */
export const MAX_CRASHES = 2;

/**
 * The `job_runs` table (jobs.schema.ts): starts and ends of each job, so a start without an end
 * — the process died mid-job — is counted, whichever process or database it was on.
 */
export function createJobRuns(sql: SqlExecutor) {
  return {
    /** Records a start; `crashes` is how many earlier starts never ended. */
    async started(jobId: string, queue: string): Promise<{ crashes: number }> {
      const { rows } = await sql(
        `insert into job_runs (job_id, queue, starts) values ($1, $2, 1)
         on conflict (job_id) do update set starts = job_runs.starts + 1, updated_at = now()
         returning starts, ends`,
        [jobId, queue],
      );
      const { starts, ends } = rows[0] as { starts: number; ends: number };
      return { crashes: starts - 1 - ends };
    },
    /** The attempt ended (returned or threw) and another may follow. */
    async ended(jobId: string): Promise<void> {
      await sql('update job_runs set ends = ends + 1, updated_at = now() where job_id = $1', [jobId]);
    },
    /** The job is over for good. */
    async forget(jobId: string): Promise<void> {
      await sql('delete from job_runs where job_id = $1', [jobId]);
    },
  };
}
