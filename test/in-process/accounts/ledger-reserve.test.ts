import t from 'tap';
import { sql } from 'kysely';
import { quotaPeriodAt } from '@comps/shared/db/period';
import { AppError } from '@comps/shared/errors/app-error';
import { newRequestId } from '@comps/shared/ids';
import { readCounter } from '../../../services/accounts/src/ledger/ledger-repository.js';
import { releaseQuota, reserveQuota, settleQuota } from '../../../services/accounts/src/ledger/ledger-service.js';
import { ledgerHarness } from '../../helpers/ledger-harness.js';

// The ledger in process, on pools made as accounts' main makes its own, with a clock of the test's.
const TTL_MS = 60_000;
const { db, pool, ledgerAt, workspaceWithQuota } = await ledgerHarness(t, { reservationTtlMs: TTL_MS, workspaceName: 'ledger-reserve' });

async function reservationsOf(workspaceId: string): Promise<Array<{ requestId: string; state: string }>> {
  return db.selectFrom('usageReservations').select(['requestId', 'state']).where('workspaceId', '=', workspaceId).orderBy('requestId').execute();
}

const NOW = new Date();
const period = quotaPeriodAt(NOW).key;

t.test('the figures: each reservation holds a unit; a charge moves it to used; past the limit it is refused', async (t) => {
  const workspaceId = await workspaceWithQuota(3);
  const ledger = ledgerAt(NOW);
  const first = newRequestId();
  t.strictSame(await reserveQuota(ledger, { workspaceId, requestId: first }), { ok: true, limit: 3, used: 0, remaining: 2 });
  t.strictSame(await reserveQuota(ledger, { workspaceId, requestId: newRequestId() }), { ok: true, limit: 3, used: 0, remaining: 1 });
  await settleQuota(ledger, first);
  t.strictSame(await reserveQuota(ledger, { workspaceId, requestId: newRequestId() }), { ok: true, limit: 3, used: 1, remaining: 0 });
  const refused = newRequestId();
  t.strictSame(await reserveQuota(ledger, { workspaceId, requestId: refused }), { ok: false, reason: 'quota_exhausted', limit: 3, used: 1, remaining: 0 });
  t.strictSame(await readCounter(db, workspaceId, period), { used: 1, reserved: 2 });
  t.equal((await reservationsOf(workspaceId)).length, 3, 'a refused request leaves no reservation');
});

t.test('the first reservation of a workspace and of a new month creates the counter', async (t) => {
  const workspaceId = await workspaceWithQuota(5);
  t.strictSame(await reserveQuota(ledgerAt(NOW), { workspaceId, requestId: newRequestId() }), { ok: true, limit: 5, used: 0, remaining: 4 });
  const nextMonth = quotaPeriodAt(NOW).end;
  t.strictSame(await reserveQuota(ledgerAt(nextMonth), { workspaceId, requestId: newRequestId() }), { ok: true, limit: 5, used: 0, remaining: 4 });
  t.strictSame(await readCounter(db, workspaceId, quotaPeriodAt(nextMonth).key), { used: 0, reserved: 1 });
  t.strictSame(await readCounter(db, workspaceId, period), { used: 0, reserved: 1 }, "the last month's counter is untouched");
});

t.test('concurrent reservations from two processes never overspend at the limit', async (t) => {
  const workspaceId = await workspaceWithQuota(10);
  // Two ledgers on two pools, as two accounts processes would be.
  const ledgers = [ledgerAt(NOW), ledgerAt(NOW, pool())];
  const outcomes = await Promise.all(
    Array.from({ length: 60 }, (_, index) => reserveQuota(ledgers[index % 2]!, { workspaceId, requestId: newRequestId() })),
  );
  const granted = outcomes.filter((outcome) => outcome.ok);
  t.equal(granted.length, 10, 'exactly the quota is granted');
  // Each grant read the counter right after its own unit, in its own transaction: every figure once.
  t.strictSame(granted.map((outcome) => outcome.remaining).sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const refusals = outcomes.filter((outcome) => !outcome.ok);
  t.ok(refusals.every((outcome) => outcome.remaining === 0 && outcome.used === 0), `each refusal says the quota is held: ${JSON.stringify(refusals.filter((outcome) => outcome.remaining !== 0 || outcome.used !== 0))}`);
  t.strictSame(await readCounter(db, workspaceId, period), { used: 0, reserved: 10 });
  const rows = await reservationsOf(workspaceId);
  t.equal(rows.length, 10, 'one reservation row for each unit taken, none for a refusal');
  t.ok(rows.every((row) => row.state === 'reserved'));
});

t.test('a duplicate request id is a retry, answered as the first, even at the limit', async (t) => {
  const workspaceId = await workspaceWithQuota(1);
  const ledger = ledgerAt(NOW);
  const requestId = newRequestId();
  t.strictSame(await reserveQuota(ledger, { workspaceId, requestId }), { ok: true, limit: 1, used: 0, remaining: 0 });
  t.strictSame(await reserveQuota(ledger, { workspaceId, requestId }), { ok: true, limit: 1, used: 0, remaining: 0 }, 'the retry is not refused by its own unit');
  const retries = await Promise.all(Array.from({ length: 5 }, () => reserveQuota(ledger, { workspaceId, requestId })));
  t.ok(retries.every((retry) => retry.ok));
  t.strictSame(await readCounter(db, workspaceId, period), { used: 0, reserved: 1 }, 'one unit held, however often it was asked');
  t.equal((await reservationsOf(workspaceId)).length, 1);

  await releaseQuota(ledger, requestId);
  t.strictSame(await reserveQuota(ledger, { workspaceId, requestId }), { ok: true, limit: 1, used: 0, remaining: 0 }, 'a released reservation is taken again');
  t.strictSame(await readCounter(db, workspaceId, period), { used: 0, reserved: 1 });

  const racing = await workspaceWithQuota(5);
  const raced = newRequestId();
  const answers = await Promise.all(Array.from({ length: 6 }, () => reserveQuota(ledger, { workspaceId: racing, requestId: raced })));
  t.ok(answers.every((answer) => answer.ok), 'a new request id sent six times at once: every answer grants it');
  t.strictSame(await readCounter(db, racing, period), { used: 0, reserved: 1 }, 'and one unit is held');

  const other = await workspaceWithQuota(5);
  await t.rejects(reserveQuota(ledger, { workspaceId: other, requestId }), new AppError('invalid_request', `Request id ${requestId} belongs to another reservation`));
  t.strictSame(await readCounter(db, other, period), { used: 0, reserved: 0 }, "another workspace's request id takes nothing");
});

t.test("a refused reservation frees the units of dead requests (past their lease) and takes one", async (t) => {
  const workspaceId = await workspaceWithQuota(2);
  const ledger = ledgerAt(NOW);
  const dead = [newRequestId(), newRequestId()];
  for (const requestId of dead) t.ok((await reserveQuota(ledger, { workspaceId, requestId })).ok);
  t.notOk((await reserveQuota(ledger, { workspaceId, requestId: newRequestId() })).ok, 'within their lease, the units stay held');
  t.strictSame(await readCounter(db, workspaceId, period), { used: 0, reserved: 2 });

  ledger.clock.time = new Date(NOW.getTime() + TTL_MS + 1);
  const next = newRequestId();
  t.strictSame(await reserveQuota(ledger, { workspaceId, requestId: next }), { ok: true, limit: 2, used: 0, remaining: 1 });
  const states = new Map((await reservationsOf(workspaceId)).map((row) => [row.requestId, row.state]));
  t.strictSame(dead.map((requestId) => states.get(requestId)), ['released', 'released']);
  t.equal(states.get(next), 'reserved');
  t.strictSame(await readCounter(db, workspaceId, period), { used: 0, reserved: 1 });
});

t.test('a reservation is one round trip to the database, granted or refused', async (t) => {
  // One connection, so that its session's statement count is the ledger's.
  const single = pool(1);
  const workspaceId = await workspaceWithQuota(3);
  const ledger = ledgerAt(NOW, single);
  // The first call reads the quota and creates the month's counter.
  await reserveQuota(ledger, { workspaceId, requestId: newRequestId() });
  const questions = async () => {
    const { rows } = await sql<{ Value: string }>`SHOW SESSION STATUS LIKE 'Questions'`.execute(single.withoutPlugins());
    return Number(rows[0]!.Value);
  };
  const statementsOf = async (work: () => Promise<unknown>) => {
    const before = await questions();
    await work();
    // The second SHOW counts itself.
    return (await questions()) - before - 1;
  };
  t.equal(await statementsOf(() => reserveQuota(ledger, { workspaceId, requestId: newRequestId() })), 1, 'granted');
  t.equal(await statementsOf(() => reserveQuota(ledger, { workspaceId, requestId: newRequestId() })), 1, 'granted, the last unit');
  t.equal(await statementsOf(() => reserveQuota(ledger, { workspaceId, requestId: newRequestId() })), 1, 'refused');
});
