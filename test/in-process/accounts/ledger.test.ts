import t from 'tap';
import { newRequestId } from '@comps/shared/ids';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

// A short reservation lease, so that a "crashed" request's unit comes back within the test: the next reservation
// refused for want of units frees expired ones itself. 8 s: under load 10, 200 operations at once outlasted 3 s. The jobs processes' periodic sweep is kept out of the way: on a
// busy machine it released the reservations of the concurrency tests between their reserve and settle.
const RESERVATION_TTL_MS = 8000;
const stack = await startTestStack(t, {
  serviceEnv: { accounts: { QUOTA_RESERVATION_TTL_SECONDS: String(RESERVATION_TTL_MS / 1000) }, jobs: { QUOTA_SWEEP_INTERVAL_MS: '3600000' } },
});
const accounts = accountsClient(stack);

async function usedOf(workspaceId: string): Promise<number> {
  return (await accounts.usage.get.query({ workspaceId })).used;
}

t.test('50 concurrent callers against a quota of 10: exactly 10 charged, the rest refused', async (t) => {
  const { workspaceId } = await createWorkspace(stack, { quota: 10 });
  const outcomes = await Promise.all(
    Array.from({ length: 50 }, async () => {
      const requestId = newRequestId();
      const reserved = await accounts.quota.reserve.mutate({ workspaceId, requestId });
      if (!reserved.ok) return 'refused';
      const settled = await accounts.quota.settle.mutate({ requestId });
      return settled.charged ? 'charged' : 'uncharged';
    }),
  );
  t.equal(outcomes.filter((outcome) => outcome === 'charged').length, 10);
  t.equal(outcomes.filter((outcome) => outcome === 'refused').length, 40);
  t.equal(await usedOf(workspaceId), 10);
  const after = await accounts.quota.reserve.mutate({ workspaceId, requestId: newRequestId() });
  t.strictSame(after, { ok: false, reason: 'quota_exhausted', limit: 10, used: 10, remaining: 0 });
});

t.test('failures are never charged: half of 40 concurrent requests fail, only successes count', async (t) => {
  const { workspaceId } = await createWorkspace(stack, { quota: 100 });
  await Promise.all(
    Array.from({ length: 40 }, async (_, index) => {
      const requestId = newRequestId();
      const reserved = await accounts.quota.reserve.mutate({ workspaceId, requestId });
      t.ok(reserved.ok);
      if (index % 2 === 0) await accounts.quota.settle.mutate({ requestId });
      else await accounts.quota.release.mutate({ requestId });
    }),
  );
  t.equal(await usedOf(workspaceId), 20);
});

t.test('in-flight reservations hold quota: a failure gives its unit back to the next caller', async (t) => {
  const { workspaceId } = await createWorkspace(stack, { quota: 2 });
  const first = newRequestId();
  const second = newRequestId();
  t.ok((await accounts.quota.reserve.mutate({ workspaceId, requestId: first })).ok);
  t.ok((await accounts.quota.reserve.mutate({ workspaceId, requestId: second })).ok);
  t.notOk((await accounts.quota.reserve.mutate({ workspaceId, requestId: newRequestId() })).ok, 'both units are held');
  await accounts.quota.release.mutate({ requestId: second });
  t.ok((await accounts.quota.reserve.mutate({ workspaceId, requestId: newRequestId() })).ok, 'the released unit is free again');
});

t.test('a request id is charged once however often it is settled, and a release after it changes nothing', async (t) => {
  const { workspaceId } = await createWorkspace(stack, { quota: 10 });
  const requestId = newRequestId();
  await accounts.quota.reserve.mutate({ workspaceId, requestId });
  await accounts.quota.reserve.mutate({ workspaceId, requestId });
  const settles = await Promise.all(Array.from({ length: 5 }, () => accounts.quota.settle.mutate({ requestId })));
  t.ok(settles.every((settle) => settle.charged && settle.used === 1));
  t.strictSame(await accounts.quota.release.mutate({ requestId }), { released: false });
  t.equal(await usedOf(workspaceId), 1);
  t.equal((await accounts.quota.reserve.mutate({ workspaceId, requestId: newRequestId() })).used, 1, 'no unit left reserved');
});

t.test('a crashed request\'s reservation is released by itself', async (t) => {
  const { workspaceId } = await createWorkspace(stack, { quota: 1 });
  const crashed = newRequestId();
  t.ok((await accounts.quota.reserve.mutate({ workspaceId, requestId: crashed })).ok);
  t.notOk((await accounts.quota.reserve.mutate({ workspaceId, requestId: newRequestId() })).ok, 'the unit is held');
  const started = Date.now();
  const retry = await eventually('the crashed request\'s unit comes back', async () => {
    const reserved = await accounts.quota.reserve.mutate({ workspaceId, requestId: newRequestId() });
    return reserved.ok ? reserved : undefined;
  }, { timeoutMs: RESERVATION_TTL_MS + 5000, intervalMs: 100 });
  t.ok(retry.ok, `the unit came back after ${Date.now() - started} ms`);
  t.equal(await usedOf(workspaceId), 0, 'nothing was charged for the crashed request');
});

t.test('a late success after its lease ran out is charged only while quota remains', async (t) => {
  const { workspaceId } = await createWorkspace(stack, { quota: 1 });
  const slow = newRequestId();
  await accounts.quota.reserve.mutate({ workspaceId, requestId: slow });
  await new Promise((resolve) => setTimeout(resolve, RESERVATION_TTL_MS + 200));
  await accounts.maintenance.releaseExpiredReservations.mutate();
  const other = newRequestId();
  t.ok((await accounts.quota.reserve.mutate({ workspaceId, requestId: other })).ok, 'another request took the unit');
  await accounts.quota.settle.mutate({ requestId: other });
  const late = await accounts.quota.settle.mutate({ requestId: slow });
  t.equal(late.charged, false, 'no overspend: the late request is not charged');
  t.equal(await usedOf(workspaceId), 1);
});

t.test('the ledger never goes over quota under a mix of everything at once', async (t) => {
  const { workspaceId } = await createWorkspace(stack, { quota: 15 });
  const results = await Promise.all(
    Array.from({ length: 60 }, async (_, index) => {
      const requestId = newRequestId();
      const reserved = await accounts.quota.reserve.mutate({ workspaceId, requestId });
      if (!reserved.ok) return 0;
      if (index % 3 === 0) {
        await accounts.quota.release.mutate({ requestId });
        return 0;
      }
      return (await accounts.quota.settle.mutate({ requestId })).charged ? 1 : 0;
    }),
  );
  const charged = results.reduce<number>((sum, value) => sum + value, 0);
  const used = await usedOf(workspaceId);
  t.equal(used, charged, 'the counter equals the charges handed out');
  t.ok(used <= 15, `used ${used} of 15`);
});

t.test('many workspaces reserving, settling and releasing at once: no deadlock reaches a caller', async (t) => {
  const workspaces = await Promise.all(Array.from({ length: 10 }, () => createWorkspace(stack, { quota: 1000 })));
  const outcomes = await Promise.allSettled(
    Array.from({ length: 200 }, async (_, index) => {
      const { workspaceId } = workspaces[index % workspaces.length]!;
      const requestId = newRequestId();
      await accounts.quota.reserve.mutate({ workspaceId, requestId });
      if (Math.floor(index / workspaces.length) % 2 === 0) await accounts.quota.settle.mutate({ requestId });
      else await accounts.quota.release.mutate({ requestId });
    }),
  );
  const failures = outcomes.filter((outcome) => outcome.status === 'rejected');
  t.equal(failures.length, 0, failures.map((failure) => String((failure as PromiseRejectedResult).reason)).slice(0, 3).join('; '));
  const used = await Promise.all(workspaces.map(({ workspaceId }) => usedOf(workspaceId)));
  t.strictSame(used, Array(10).fill(10), 'every workspace charged exactly its ten settled requests');
});
