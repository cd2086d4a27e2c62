import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import t from 'tap';
import { createLogger } from '@comps/shared/logging/create-logger';
import type { QuotaLedger } from '@comps/shared/metering/quota-ledger';
import { SettlementOutbox } from '@comps/shared/metering/settlement-outbox';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { eventually } from '../../helpers/http-client.js';
import { TEST_REDIS_URL } from '../../helpers/test-env.js';

// A clean stop does not wait out the outbox's blocking read for new charges: Redis ends it (CLIENT UNBLOCK). Every
// api and jobs process closes one at SIGTERM, and each used to wait up to the read's 500 ms.

const logger = createLogger('settlement-outbox-close-test', 'silent');
/** Nothing is charged here: a ledger call would be a bug. */
const noLedger = new Proxy({} as QuotaLedger, {
  get: (_target, name) => () => Promise.reject(new Error(`the ledger was asked ${String(name)}`)),
});

t.test('close ends a blocking read for new charges at once, rather than waiting out its block', async (t) => {
  const writer = createRedisClient({ url: TEST_REDIS_URL }, logger);
  const reader = createRedisClient({ url: TEST_REDIS_URL }, logger);
  const writerConnected = connectInBackground(writer, logger);
  const readerConnected = connectInBackground(reader, logger);
  const probe = await createClient({ url: TEST_REDIS_URL }).connect();
  const key = `test:outbox-close:${randomBytes(4).toString('hex')}:settlements`;
  // A block far longer than the test: only an unblock ends it in time.
  const outbox = new SettlementOutbox(writer, reader, noLedger, logger, { key, blockMs: 100_000 });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= outbox.close());
  t.teardown(async () => {
    // Should the test stop early, its outbox is closed all the same (the connections go, its read with them).
    await Promise.race([close(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    await closeRedis(reader, readerConnected);
    await closeRedis(writer, writerConnected);
    await probe.del(key);
    probe.destroy();
  });
  await Promise.all([writerConnected, readerConnected]);
  const readerId = await reader.clientId();
  outbox.start();
  await eventually('the reader is blocked on the stream', async () => {
    const line = String(await probe.sendCommand(['CLIENT', 'LIST', 'ID', String(readerId)]));
    return /\bcmd=xreadgroup\b/.test(line) && /\bflags=\S*b/.test(line) ? true : undefined;
  });
  const tooLate = new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 10_000).unref());
  t.equal(await Promise.race([close().then(() => 'closed' as const), tooLate]), 'closed', 'close returned while the read had more than 90 s of its block left');
  const line = String(await probe.sendCommand(['CLIENT', 'LIST', 'ID', String(readerId)]));
  t.notMatch(line, /\bflags=\S*b/, 'the reader is blocked no more');
});
