import t from 'tap';
import { randomUUID } from 'node:crypto';
import { createDb } from '@comps/shared/db/create-db';
import { AppError } from '@comps/shared/errors/app-error';
import { newRequestId, newRunId, newTrackedSearchId } from '@comps/shared/ids';
import type { HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import type { AllowanceCharge, SettleBatchOutcome } from '@comps/shared/internal/accounts/quota';
import { createLogger } from '@comps/shared/logging/create-logger';
import type { QuotaLedger } from '@comps/shared/metering/quota-ledger';
import type { JobsDatabase } from '../../../services/jobs/src/db/database.js';
import { clearJobPagesChargePending, insertJob, pageRequestId, recordPage } from '../../../services/jobs/src/jobs/job-repository.js';
import { settlePendingCharges } from '../../../services/jobs/src/pending-charges/settle-pending-charges.js';
import { insertRun, recordRunPage, runPageRequestId } from '../../../services/jobs/src/tracked/run-repository.js';
import { insertTrackedSearch } from '../../../services/jobs/src/tracked/tracked-search-repository.js';
import { prepareTestDatabase, TEST_DATABASE_URL } from '../../helpers/test-env.js';

// The sweep of charges a jobs process left between a page's store and the charge's handover to the
// settlement outbox: after the grace, each is settled by its request id (from its allowance when it
// took a unit of one), cleared, and uncounted when the ledger did not charge it; never before the
// grace, never twice, and a page a live process handed over meanwhile is left to that process.
await prepareTestDatabase();
const db = createDb<JobsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 4, isolation: 'read committed' });
t.teardown(() => db.destroy());
const GRACE_MS = 30_000;
const logger = createLogger('pending-charges-test', 'silent');

/** A ledger double: answers each settlement as `answer` says, and keeps what it was asked. */
function ledgerDouble(answer: (requestId: string) => Promise<SettleBatchOutcome>) {
  const calls: Array<{ requestIds: string[]; allowanceCharges: AllowanceCharge[] }> = [];
  const history: HistoryRecord[] = [];
  const ledger = {
    settleBatch: async (requestIds: string[], entries: HistoryRecord[], allowanceCharges: AllowanceCharge[] = []) => {
      calls.push({ requestIds, allowanceCharges });
      history.push(...entries);
      return answer(requestIds[0] ?? allowanceCharges[0]!.requestId);
    },
  } as unknown as QuotaLedger;
  return { ledger, calls, history };
}
const CHARGED: SettleBatchOutcome = { charged: 1, notCharged: 0, unknown: [] };

/** A running job with a stored page for each of `pages`, each counted as charged, its charge waiting since then (with its allowance); answers the job's id and the pages' request ids. */
async function jobWithStoredPages(pages: Array<{ since: Date; allowanceId: string | null }>): Promise<{ jobId: string; requestIds: string[] }> {
  const jobId = randomUUID();
  const now = new Date();
  await insertJob(db, {
    id: jobId, workspaceId: `ws_${jobId.slice(0, 8)}`, apiKeyId: null, apiKeyPrefix: null, status: 'running', stopReason: null, keyword: 'lamp', marketSite: 'market.com', maxPages: 10,
    count: 60, resultType: 'inline', errorCode: null, errorMessage: null, idempotencyKeyHash: null, requestFingerprint: 'x'.repeat(64), activeWorkspaceId: null,
    createdAt: now, startedAt: now, finishedAt: null, expiresAt: null,
  });
  const requestIds: string[] = [];
  for (const [index, chargePending] of pages.entries()) {
    requestIds.push(await pageRequestId(db, jobId, index + 1, newRequestId()));
    await recordPage(db, jobId, { page: index + 1, newItems: 0, statsItems: '[]', chargePending });
  }
  return { jobId, requestIds };
}

const pagesChargedOf = async (jobId: string) => (await db.selectFrom('jobs').select('pagesCharged').where('id', '=', jobId).executeTakeFirstOrThrow()).pagesCharged;
const pendingOf = async (jobId: string) =>
  (await db.selectFrom('jobPages').select(['page', 'chargePendingSince', 'chargeAllowanceId']).where('jobId', '=', jobId).where('chargePendingSince', 'is not', null).orderBy('page').execute()).map((row) => row.page);

t.test('after the grace, each waiting charge is settled by its request id, cleared, and uncounted if the ledger did not charge it; before it, none', async (t) => {
  const storedAt = new Date('2026-11-27T10:00:00Z');
  const { jobId, requestIds } = await jobWithStoredPages([
    { since: storedAt, allowanceId: 'alw_of_page_one' },
    { since: storedAt, allowanceId: null },
    { since: storedAt, allowanceId: null },
    { since: storedAt, allowanceId: null },
  ]);
  t.strictSame(await pendingOf(jobId), [1, 2, 3, 4], 'recording a page marks its charge waiting');
  // Page 4's charge was handed over: its process cleared it.
  t.equal(await clearJobPagesChargePending(db, jobId, [4]), 1, 'a waiting charge is cleared once');
  t.equal(await clearJobPagesChargePending(db, jobId, [4]), 0, 'and not again');

  // Page 3's unit is gone and the quota used up since (or accounts never knew it): not charged.
  const { ledger, calls, history } = ledgerDouble(async (requestId) => (requestId === requestIds[2] ? { charged: 0, notCharged: 0, unknown: [requestId] } : CHARGED));
  const signal = new AbortController().signal;
  t.strictSame(await settlePendingCharges({ db, ledger, logger }, new Date(storedAt.getTime() + GRACE_MS), GRACE_MS, signal), { charged: 0, notCharged: 0 }, 'none within the grace');
  t.equal(calls.length, 0);

  const after = new Date(storedAt.getTime() + GRACE_MS + 1);
  t.strictSame(await settlePendingCharges({ db, ledger, logger }, after, GRACE_MS, signal), { charged: 2, notCharged: 1 });
  t.strictSame(
    calls.filter((call) => [...call.requestIds, ...call.allowanceCharges.map((charge) => charge.requestId)].some((id) => requestIds.includes(id))),
    [
      { requestIds: [], allowanceCharges: [{ requestId: requestIds[0], allowanceId: 'alw_of_page_one' }] },
      { requestIds: [requestIds[1]], allowanceCharges: [] },
      { requestIds: [requestIds[2]], allowanceCharges: [] },
    ],
    'the allowance unit from its allowance, the others as their own reservations, in page order',
  );
  const workspaceId = `ws_${jobId.slice(0, 8)}`;
  t.strictSame(
    history.filter((entry) => entry.jobId === jobId),
    requestIds.slice(0, 3).map((requestId) => ({
      requestId, workspaceId, apiKeyId: null, apiKeyPrefix: null, method: 'POST', path: '/v1/scrape/max', status: 200, code: null, charged: 1, durationMs: 0,
      marketSite: 'market.com', hasKeyword: true, resultCount: null, jobId,
    })),
    "each with the page's history entry, which its process never wrote",
  );
  t.strictSame(await pendingOf(jobId), [], 'none waits any more');
  t.equal(await pagesChargedOf(jobId), 3, 'the page the ledger did not charge is uncounted; the others stay counted');

  const again = calls.length;
  t.strictSame(await settlePendingCharges({ db, ledger, logger }, new Date(after.getTime() + GRACE_MS), GRACE_MS, signal), { charged: 0, notCharged: 0 }, 'a second sweep finds nothing');
  t.equal(calls.length, again);
});

t.test('a refusal by accounts: not charged, uncounted; accounts out of reach: the sweep stops, and the next one settles the page', async (t) => {
  const storedAt = new Date('2026-11-27T10:30:00Z');
  const { jobId, requestIds } = await jobWithStoredPages([
    { since: storedAt, allowanceId: null },
    { since: new Date(storedAt.getTime() + 1), allowanceId: null },
  ]);
  const after = new Date(storedAt.getTime() + GRACE_MS + 10);
  const signal = new AbortController().signal;
  let reachable = false;
  const { ledger } = ledgerDouble(async (requestId) => {
    if (requestId === requestIds[0]) throw new AppError('invalid_request', 'Unknown workspace');
    if (!reachable) throw new AppError('service_unavailable', 'accounts is down');
    return CHARGED;
  });
  await t.rejects(settlePendingCharges({ db, ledger, logger }, after, GRACE_MS, signal), { code: 'service_unavailable' });
  t.strictSame(await pendingOf(jobId), [2], 'the refused page is cleared; the other still waits');
  t.equal(await pagesChargedOf(jobId), 1, 'the refused page is uncounted');
  reachable = true;
  t.strictSame(await settlePendingCharges({ db, ledger, logger }, after, GRACE_MS, signal), { charged: 1, notCharged: 0 });
  t.strictSame(await pendingOf(jobId), []);
  t.equal(await pagesChargedOf(jobId), 1);
});

t.test('a page whose process cleared it while the sweep settled it is not uncounted by the sweep', async (t) => {
  const storedAt = new Date('2026-11-27T11:00:00Z');
  const { jobId } = await jobWithStoredPages([{ since: storedAt, allowanceId: null }]);
  // The process handed the charge over and cleared the page while the sweep's settlement was on its way.
  const { ledger } = ledgerDouble(async () => {
    await clearJobPagesChargePending(db, jobId, [1]);
    return { charged: 0, notCharged: 1, unknown: [] };
  });
  t.strictSame(await settlePendingCharges({ db, ledger, logger }, new Date(storedAt.getTime() + GRACE_MS + 1), GRACE_MS, new AbortController().signal), { charged: 0, notCharged: 1 });
  t.equal(await pagesChargedOf(jobId), 1, 'not uncounted by the sweep too');
});

t.test("a run's page: settled and cleared the same way", async (t) => {
  const runId = newRunId();
  const trackedSearchId = newTrackedSearchId();
  const now = new Date();
  await insertTrackedSearch(db, {
    id: trackedSearchId, workspaceId: 'ws_pending_runs', apiKeyId: 'key_of_the_search', apiKeyPrefix: 'ck_live_abc', name: 'lamps', status: 'active', pausedReason: null, keyword: 'lamp',
    marketSite: 'market.de', query: '{}', schedule: 'daily', maxPagesPerRun: 1, nextRunAt: null, lastRunId: runId, firstSoldDate: null, lastSoldDate: null, createdAt: now,
  });
  await insertRun(db, {
    id: runId, trackedSearchId, workspaceId: 'ws_pending_runs', apiKeyId: 'key_of_the_run', apiKeyPrefix: 'ck_live_def', runTrigger: 'schedule', status: 'completed', stopReason: 'max_pages',
    errorCode: null, errorMessage: null, activeTrackedSearchId: null, startedAt: now, finishedAt: now,
  });
  const requestId = await runPageRequestId(db, runId, 1, newRequestId());
  const storedAt = new Date('2026-11-27T12:00:00Z');
  await recordRunPage(db, runId, { page: 1, newSales: 0, chargePending: { since: storedAt, allowanceId: 'alw_of_the_run' } });
  t.match(await db.selectFrom('trackedSearchRuns').select(['pagesFetched', 'pagesCharged', 'nextPage']).where('id', '=', runId).executeTakeFirstOrThrow(), { pagesFetched: 1, pagesCharged: 1, nextPage: 2 }, 'recorded: counted, and on to the next page');
  const { ledger, calls, history } = ledgerDouble(async () => ({ charged: 0, notCharged: 1, unknown: [] }));
  t.strictSame(await settlePendingCharges({ db, ledger, logger }, new Date(storedAt.getTime() + GRACE_MS + 1), GRACE_MS, new AbortController().signal), { charged: 0, notCharged: 1 });
  t.strictSame(calls.filter((call) => call.allowanceCharges.some((charge) => charge.requestId === requestId)), [{ requestIds: [], allowanceCharges: [{ requestId, allowanceId: 'alw_of_the_run' }] }]);
  t.match(history.filter((entry) => entry.jobId === runId), [{ requestId, workspaceId: 'ws_pending_runs', apiKeyId: 'key_of_the_run', apiKeyPrefix: 'ck_live_def', path: '/v1/tracked-searches/{trackedSearchId}/runs', marketSite: 'market.de' }]);
  const run = await db.selectFrom('trackedSearchRuns').select('pagesCharged').where('id', '=', runId).executeTakeFirstOrThrow();
  t.equal(run.pagesCharged, 0, 'the run counts the page as not charged');
  const row = await db.selectFrom('trackedSearchRunPages').select(['chargePendingSince', 'chargeAllowanceId']).where('runId', '=', runId).executeTakeFirstOrThrow();
  t.strictSame(row, { chargePendingSince: null, chargeAllowanceId: null });
});

t.test("a job's page keeps the request id of its first attempt however many times it is fetched (a page taken over is charged once)", async (t) => {
  const { jobId } = await jobWithStoredPages([]);
  const first = await pageRequestId(db, jobId, 3, 'req_01JAAAAAAAAAAAAAAAAAAAAAAA');
  const again = await pageRequestId(db, jobId, 3, 'req_01JBBBBBBBBBBBBBBBBBBBBBBB');
  const other = await pageRequestId(db, jobId, 4, 'req_01JCCCCCCCCCCCCCCCCCCCCCCC');
  t.equal(first, 'req_01JAAAAAAAAAAAAAAAAAAAAAAA', 'a first attempt stores its own');
  t.equal(again, first, 'a later attempt gets the first one');
  t.equal(other, 'req_01JCCCCCCCCCCCCCCCCCCCCCCC', 'each page its own');
  const stored = await db.selectFrom('jobPages').select(['page', 'requestId']).where('jobId', '=', jobId).orderBy('page').execute();
  t.strictSame(stored, [{ page: 3, requestId: first }, { page: 4, requestId: other }]);
  await t.rejects(pageRequestId(db, randomUUID(), 1, newRequestId()), 'a job that does not exist has no page');
});
