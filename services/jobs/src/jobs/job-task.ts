/** The task kind of a scrape job's turns. */
export const SCRAPE_JOB_TASK = 'scrape-job';

/** A job's task exists once: its key. */
export function jobTaskKey(jobId: string): string {
  return `job:${jobId}`;
}
