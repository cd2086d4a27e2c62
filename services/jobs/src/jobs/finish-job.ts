import type { JobStatus, JobStopReason } from '@comps/shared/contract/job';
import { LIMITS } from '@comps/shared/contract/limits';
import { newEventId } from '@comps/shared/ids';
import type { JobsExecutor } from '../db/database.js';
import { insertEvent } from '../events/event-repository.js';
import { deleteTaskByKey } from '../tasks/task-repository.js';
import { jobSummaryOf } from './job-record.js';
import { endJobRow, lockJob, ACTIVE_STATUSES } from './job-repository.js';
import { jobTaskKey } from './job-task.js';

export const RETENTION_MS = LIMITS.jobRetentionHours * 3_600_000;

export interface JobEnd {
  status: Exclude<JobStatus, 'queued' | 'running'>;
  stopReason: JobStopReason;
  error?: { code: string; message: string };
}

/** The event a job's end writes (the webhook issue delivers it; nothing consumes it yet). */
export const JOB_ENDED = 'job.ended';

/**
 * Where every job ends, whatever ended it (a stop rule after a stored page, a failure, a
 * cancellation): in the caller's transaction, the job takes its final state and its expiry (24
 * hours on), its task goes, and a `job.ended` event records it, so that nothing can end a job
 * without its event or write the event of a job that did not end. False when the job had already
 * ended (nothing changes then).
 */
export async function finishJob(trx: JobsExecutor, jobId: string, end: JobEnd, at: Date): Promise<boolean> {
  const job = await lockJob(trx, jobId);
  if (!job || !ACTIVE_STATUSES.includes(job.status)) return false;
  const ended = await endJobRow(trx, jobId, { ...end, at, expiresAt: new Date(at.getTime() + RETENTION_MS) });
  await deleteTaskByKey(trx, jobTaskKey(jobId));
  await insertEvent(trx, { id: newEventId(), type: JOB_ENDED, workspaceId: ended.workspaceId, subjectId: jobId, payload: jobSummaryOf(ended), createdAt: at });
  return true;
}
