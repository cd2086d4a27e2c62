import t from 'tap';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '@comps/shared/config/load-config';
import { WEBHOOK_ID_PATTERN, WEBHOOK_LIMITS, WEBHOOK_SECRET_PATTERN, type WebhookEventType } from '@comps/shared/contract/webhook';
import { createDb } from '@comps/shared/db/create-db';
import { AppError } from '@comps/shared/errors/app-error';
import { newDeliveryId, newWebhookId } from '@comps/shared/ids';
import { REPEATED_CREATION_WINDOW_MS } from '@comps/shared/internal/created-once';
import type { KeyAnnouncer } from '@comps/shared/internal/accounts/key-announcements';
import { createLogger } from '@comps/shared/logging/create-logger';
import type { Resolver, WebhookAddressPolicy } from '@comps/shared/webhooks/address-policy';
import { loadAccountsConfig } from '../../../services/accounts/src/config.js';
import type { AccountsDatabase } from '../../../services/accounts/src/db/database.js';
import { createLedgerContext } from '../../../services/accounts/src/ledger/ledger-context.js';
import { accountsRouter } from '../../../services/accounts/src/trpc/router.js';
import { createCallerFactory } from '../../../services/accounts/src/trpc/trpc.js';
import { createWebhookContext } from '../../../services/accounts/src/webhooks/webhook-context.js';
import { SecretBox, SecretBoxError } from '../../../services/accounts/src/webhooks/webhook-secret-box.js';
import { codeOf } from '../../helpers/procedure-errors.js';
import { prepareTestDatabase, TEST_DATABASE_URL } from '../../helpers/test-env.js';

// In-process: the accounts service's webhook procedures through tRPC's caller, on the file's own
// database, with a resolver and a clock of the test's own (no DNS, no waiting 24 hours or 5 days).
await prepareTestDatabase();
const db = createDb<AccountsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 10, isolation: 'read committed' });
t.teardown(() => db.destroy());
const logger = createLogger('webhooks-test', 'silent');

let clock = Date.parse('2026-11-25T10:00:00.000Z');
const now = () => new Date(clock);
const advance = (ms: number) => {
  clock += ms;
};
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The test's DNS: names to addresses; any other name does not resolve. */
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'other.example.com': ['93.184.216.35', '2606:2800:220:1:248:1893:25c8:1946'],
  'loopback.example.com': ['127.0.0.1'],
  'receiver.internal': ['127.0.0.1'],
};
const lookups: string[] = [];
const resolve: Resolver = async (hostname) => {
  lookups.push(hostname);
  const addresses = DNS[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
};

const secretKey = randomBytes(32).toString('base64');
const keys: KeyAnnouncer = { created: async () => undefined, revoked: async () => undefined };
const ledger = createLedgerContext(db, 300_000, now);
function callerWith(policy: WebhookAddressPolicy) {
  return createCallerFactory(accountsRouter)({ db, keys, ledger, logger, webhooks: createWebhookContext(db, { secretKey, policy, resolve, now }) });
}
const accounts = callerWith({ allowHttp: false, allowedHosts: ['receiver.internal'] });
const call = accounts.webhooks;

async function newWorkspace(options: { planId?: 'free' | 'starter' | 'pro'; limit?: number } = {}): Promise<string> {
  const { workspaceId } = await accounts.workspaces.create({ name: 'webhooks', planId: options.planId ?? 'pro' });
  if (options.limit !== undefined) await accounts.workspaces.setLimits({ workspaceId, webhookEndpoints: options.limit });
  return workspaceId;
}

const body = (url = 'https://hooks.example.com/comps', events: WebhookEventType[] = ['job.completed']) => ({ url, events });

/** A receiver's check (Standard Webhooks): some `v1,` signature of the header is the HMAC of the message under the secret. */
function verifies(secret: string, messageId: string, timestamp: number, payload: string, header: string): boolean {
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(`${messageId}.${timestamp}.${payload}`).digest();
  return header.split(' ').some((part) => {
    const [version, signature] = part.split(',');
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

async function signed(webhookId: string, payload = '{"type":"job.completed"}') {
  const messageId = newDeliveryId();
  const timestamp = Math.floor(clock / 1000);
  const answer = await call.sign({ webhookId, messageId, timestamp, body: payload });
  return { answer, check: (secret: string) => verifies(secret, messageId, timestamp, payload, answer?.signature ?? '') };
}

async function storedRow(webhookId: string) {
  return db.selectFrom('webhookEndpoints').selectAll().where('id', '=', webhookId).executeTakeFirst();
}

t.test('create, list newest first, get, update and delete an endpoint', async (t) => {
  const workspaceId = await newWorkspace();
  const created = await call.create({ workspaceId, webhookId: newWebhookId(), body: { url: 'https://hooks.example.com/comps', events: ['job.failed', 'job.completed'], description: 'ops' } });
  t.match(created.webhookId, WEBHOOK_ID_PATTERN);
  t.match(created.secret, WEBHOOK_SECRET_PATTERN);
  t.strictSame(
    { ...created, webhookId: 'x', secret: 'x' },
    { webhookId: 'x', url: 'https://hooks.example.com/comps', events: ['job.completed', 'job.failed'], description: 'ops', status: 'enabled', disabledReason: null, createdAt: now().toISOString(), secret: 'x' },
    'the endpoint as registered, events in the contract\'s order',
  );
  advance(1000);
  const second = await call.create({ workspaceId, webhookId: newWebhookId(), body: body('https://other.example.com/hook', ['trackedSearch.run.completed']) });
  t.equal(second.description, null);

  const { secret: _first, ...firstWithoutSecret } = created;
  const { secret: _second, ...secondWithoutSecret } = second;
  const listed = await call.list({ workspaceId });
  t.strictSame(listed, { webhooks: [secondWithoutSecret, firstWithoutSecret] }, 'newest first, no secrets');
  const got = await call.get({ workspaceId, webhookId: created.webhookId });
  t.strictSame(got, firstWithoutSecret);
  t.notOk('secret' in got, 'get shows no secret');
  t.ok(listed.webhooks.every((webhook) => !('secret' in webhook)), 'list shows no secret');

  const disabled = await call.update({ workspaceId, webhookId: created.webhookId, changes: { description: null, events: ['trackedSearch.run.failed', 'job.cancelled'], status: 'disabled' } });
  t.strictSame(disabled, { ...firstWithoutSecret, description: null, events: ['job.cancelled', 'trackedSearch.run.failed'], status: 'disabled', disabledReason: 'manual' });
  t.strictSame(await call.get({ workspaceId, webhookId: created.webhookId }), disabled, 'the change is stored');
  const enabled = await call.update({ workspaceId, webhookId: created.webhookId, changes: { status: 'enabled', description: 'back' } });
  t.equal(enabled.status, 'enabled');
  t.equal(enabled.disabledReason, null);
  t.equal(enabled.description, 'back');

  lookups.length = 0;
  await call.update({ workspaceId, webhookId: created.webhookId, changes: { url: 'https://hooks.example.com/comps' } });
  t.strictSame(lookups, [], 'the same URL is not checked again');
  const moved = await call.update({ workspaceId, webhookId: created.webhookId, changes: { url: 'https://other.example.com/new' } });
  t.equal(moved.url, 'https://other.example.com/new');
  t.strictSame(lookups, ['other.example.com'], 'a new URL is checked');

  t.strictSame(await call.delete({ workspaceId, webhookId: created.webhookId }), { webhookId: created.webhookId, deleted: true });
  t.equal(await storedRow(created.webhookId), undefined, 'the row is gone');
  t.equal(await codeOf(call.get({ workspaceId, webhookId: created.webhookId })), 'webhook_not_found');
  t.equal(await codeOf(call.delete({ workspaceId, webhookId: created.webhookId })), 'webhook_not_found');
  t.equal(await call.sign({ webhookId: created.webhookId, messageId: newDeliveryId(), timestamp: 1, body: '{}' }), null, 'nothing to sign for a deleted endpoint');
  t.strictSame((await call.list({ workspaceId })).webhooks.map((webhook) => webhook.webhookId), [second.webhookId]);
});

t.test('secrets are sealed at rest, bound to their endpoint, and shown only when registered', async (t) => {
  const workspaceId = await newWorkspace();
  const first = await call.create({ workspaceId, webhookId: newWebhookId(), body: body() });
  const second = await call.create({ workspaceId, webhookId: newWebhookId(), body: body() });
  const row = (await storedRow(first.webhookId))!;
  const secretBytes = first.secret.replace(/^whsec_/, '');
  t.match(row.secret, /^v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/=]+$/, 'v1:<iv>:<tag>:<ciphertext>');
  const dump = JSON.stringify(await db.selectFrom('webhookEndpoints').selectAll().execute());
  t.notOk(dump.includes(secretBytes), 'a dump of the table holds no secret');
  t.notOk(dump.includes(secretBytes.slice(0, 16)), 'not even part of one');
  t.notOk(dump.includes(Buffer.from(secretBytes, 'base64').toString('hex')), 'nor its bytes in hex');

  const box = SecretBox.fromBase64(secretKey);
  t.equal(box.open(row.secret, first.webhookId), first.secret, 'the configured key opens it');
  t.not(box.seal(first.secret, first.webhookId), box.seal(first.secret, first.webhookId), 'a new IV each time');
  t.throws(() => SecretBox.fromBase64(randomBytes(32).toString('base64')).open(row.secret, first.webhookId), SecretBoxError, 'another key does not');
  t.throws(() => box.open(row.secret, second.webhookId), SecretBoxError, 'another endpoint\'s id does not');

  // A reader who can write the table copies the first endpoint's ciphertext into the second's row: it does not open there.
  await db.updateTable('webhookEndpoints').set({ secret: row.secret }).where('id', '=', second.webhookId).execute();
  const refused = await call.sign({ webhookId: second.webhookId, messageId: newDeliveryId(), timestamp: 1, body: '{}' }).then(
    () => undefined,
    (error: unknown) => error as { code?: string; cause?: unknown },
  );
  t.equal(refused?.code, 'INTERNAL_SERVER_ERROR', 'signing with a moved secret fails');
  t.ok(refused?.cause instanceof SecretBoxError);
  t.ok((await signed(first.webhookId)).check(first.secret), 'the first still signs with its own');
});

t.test('a registration made again with its id (the first timed out at the api) answers the first with its secret: one endpoint, at once or within a minute', async (t) => {
  const workspaceId = await newWorkspace({ limit: 2 });
  const input = { workspaceId, webhookId: newWebhookId(), body: body() };
  const [first, again] = await Promise.all([call.create(input), call.create(input)]);
  t.equal(first.webhookId, input.webhookId);
  t.strictSame(again, first, 'both calls answer the same endpoint, its secret included');
  advance(REPEATED_CREATION_WINDOW_MS - 1000);
  t.strictSame(await call.create(input), first, 'and one within the minute');
  t.strictSame((await call.list({ workspaceId })).webhooks.map((webhook) => webhook.webhookId), [input.webhookId], 'one endpoint, one place of the plan taken');
  t.ok((await signed(first.webhookId)).check(first.secret), 'the secret answered is the one that signs');
  const refusals = await Promise.all([
    call.create({ ...input, workspaceId: await newWorkspace() }).then(() => 'answered', (error: { code?: string }) => error.code),
    call.create({ ...input, body: body('https://other.example.com/hook') }).then(() => 'answered', (error: { code?: string }) => error.code),
  ]);
  t.strictSame(refusals, ['INTERNAL_SERVER_ERROR', 'INTERNAL_SERVER_ERROR'], "the id given to another workspace's or another URL's registration: refused, its secret never answered");
  advance(2000);
  t.equal((await call.create(input).then(() => 'answered', (error: { code?: string }) => error.code)), 'INTERNAL_SERVER_ERROR', 'nor past a minute');
  t.equal(await codeOf(call.create({ ...input, webhookId: newWebhookId() })), 'none', 'a new id is a new endpoint');
});

t.test('the plan\'s number of endpoints holds under concurrent creations', async (t) => {
  const workspaceId = await newWorkspace({ limit: 3 });
  const outcomes = await Promise.all(Array.from({ length: 6 }, () => codeOf(call.create({ workspaceId, webhookId: newWebhookId(), body: body() }))));
  t.equal(outcomes.filter((outcome) => outcome === 'none').length, 3, 'three made');
  t.equal(outcomes.filter((outcome) => outcome === 'webhook_limit').length, 3, 'three refused with webhook_limit');
  const { webhooks } = await call.list({ workspaceId });
  t.equal(webhooks.length, 3);
  await call.delete({ workspaceId, webhookId: webhooks[0]!.webhookId });
  t.equal(await codeOf(call.create({ workspaceId, webhookId: newWebhookId(), body: body() })), 'none', 'a place freed is taken again');
  t.equal(await codeOf(call.create({ workspaceId, webhookId: newWebhookId(), body: body() })), 'webhook_limit');

  const free = await newWorkspace({ planId: 'free' });
  t.equal(await codeOf(call.create({ workspaceId: free, webhookId: newWebhookId(), body: body() })), 'none');
  const refused = await call.create({ workspaceId: free, webhookId: newWebhookId(), body: body() }).then(
    () => undefined,
    (error: { cause?: unknown }) => (error.cause instanceof AppError ? error.cause : undefined),
  );
  t.equal(refused?.code, 'webhook_limit', 'the free plan allows one');
  t.equal(refused?.status, 409);
  await accounts.workspaces.setLimits({ workspaceId: free, webhookEndpoints: 2 });
  t.equal(await codeOf(call.create({ workspaceId: free, webhookId: newWebhookId(), body: body() })), 'none', 'an override raises it');
  t.equal(await codeOf(call.create({ workspaceId: 'ws_01JZZZZZZZZZZZZZZZZZZZZZZZ', webhookId: newWebhookId(), body: body() })), 'invalid_request', 'an unknown workspace');
});

t.test('URLs the address rules refuse are invalid_webhook_url, at creation and when changed', async (t) => {
  const workspaceId = await newWorkspace();
  for (const url of ['http://hooks.example.com/comps', 'https://127.0.0.1/hook', 'https://[::1]/hook', 'https://[::ffff:127.0.0.1]/hook', 'https://loopback.example.com/hook', 'https://nowhere.example.com/hook', 'ftp://hooks.example.com/', 'not a url']) {
    t.equal(await codeOf(call.create({ workspaceId, webhookId: newWebhookId(), body: body(url) })), 'invalid_webhook_url', url);
  }
  t.equal((await call.list({ workspaceId })).webhooks.length, 0, 'none was stored');

  const allowed = await call.create({ workspaceId, webhookId: newWebhookId(), body: body('https://receiver.internal:8443/hook') });
  t.equal(allowed.url, 'https://receiver.internal:8443/hook', 'an allowed host may resolve to loopback');
  t.equal(await codeOf(call.update({ workspaceId, webhookId: allowed.webhookId, changes: { url: 'https://loopback.example.com/hook' } })), 'invalid_webhook_url');
  t.equal((await call.get({ workspaceId, webhookId: allowed.webhookId })).url, 'https://receiver.internal:8443/hook', 'a refused change changes nothing');

  const withHttp = callerWith({ allowHttp: true, allowedHosts: [] }).webhooks;
  t.equal((await withHttp.create({ workspaceId, webhookId: newWebhookId(), body: body('http://hooks.example.com/comps') })).url, 'http://hooks.example.com/comps', 'http when the operator allows it');
  t.equal(await codeOf(withHttp.create({ workspaceId, webhookId: newWebhookId(), body: body('http://127.0.0.1/hook') })), 'invalid_webhook_url', 'the address rules still apply');
});

t.test('another workspace\'s endpoint is webhook_not_found everywhere', async (t) => {
  const owner = await newWorkspace();
  const stranger = await newWorkspace();
  const endpoint = await call.create({ workspaceId: owner, webhookId: newWebhookId(), body: body() });
  const { secret: _secret, ...before } = endpoint;
  const owned = { workspaceId: stranger, webhookId: endpoint.webhookId };
  t.equal(await codeOf(call.get(owned)), 'webhook_not_found');
  t.equal(await codeOf(call.update({ ...owned, changes: { status: 'disabled' } })), 'webhook_not_found');
  t.equal(await codeOf(call.update({ ...owned, changes: { url: 'https://other.example.com/x' } })), 'webhook_not_found');
  t.equal(await codeOf(call.rotateSecret(owned)), 'webhook_not_found');
  t.equal(await codeOf(call.delete(owned)), 'webhook_not_found');
  t.strictSame(await call.list({ workspaceId: stranger }), { webhooks: [] });
  t.strictSame(await call.subscribers({ workspaceId: stranger, eventType: 'job.completed' }), { webhookIds: [] });
  t.strictSame(await call.get({ workspaceId: owner, webhookId: endpoint.webhookId }), before, 'the owner\'s endpoint is untouched');
  t.ok((await signed(endpoint.webhookId)).check(endpoint.secret), 'and its secret unchanged');
});

t.test('a rotated secret: both sign for 24 hours, then the new one alone', async (t) => {
  const workspaceId = await newWorkspace();
  const endpoint = await call.create({ workspaceId, webhookId: newWebhookId(), body: body() });
  const before = await signed(endpoint.webhookId);
  t.strictSame({ ...before.answer, signature: 'x' }, { workspaceId, url: endpoint.url, status: 'enabled', signature: 'x', failing: false });
  t.match(before.answer!.signature, /^v1,[A-Za-z0-9+/]{43}=$/, 'one signature');
  t.ok(before.check(endpoint.secret));

  const rotated = await call.rotateSecret({ workspaceId, webhookId: endpoint.webhookId });
  t.match(rotated.secret, WEBHOOK_SECRET_PATTERN);
  t.not(rotated.secret, endpoint.secret);
  t.equal(rotated.webhookId, endpoint.webhookId);
  t.equal(rotated.previousSecretExpiresAt, new Date(clock + WEBHOOK_LIMITS.rotationOverlapMs).toISOString());
  t.notOk('secret' in (await call.get({ workspaceId, webhookId: endpoint.webhookId })), 'get still shows none');

  const during = await signed(endpoint.webhookId);
  t.match(during.answer!.signature, /^v1,\S+ v1,\S+$/, 'two signatures, space-separated');
  t.ok(during.check(rotated.secret), 'the new secret verifies');
  t.ok(during.check(endpoint.secret), 'the old one still does');

  advance(WEBHOOK_LIMITS.rotationOverlapMs - 1);
  t.ok((await signed(endpoint.webhookId)).check(endpoint.secret), 'just before the 24 hours end, still both');
  advance(1);
  const after = await signed(endpoint.webhookId);
  t.match(after.answer!.signature, /^v1,[A-Za-z0-9+/]{43}=$/, 'one signature again');
  t.ok(after.check(rotated.secret));
  t.notOk(after.check(endpoint.secret), 'the old secret no longer signs');
  const row = (await storedRow(endpoint.webhookId))!;
  t.equal(row.previousSecret, null, 'and is forgotten');
  t.equal(row.previousSecretExpiresAt, null);

  // Two rotations in a row: the last two secrets sign.
  const third = await call.rotateSecret({ workspaceId, webhookId: endpoint.webhookId });
  const fourth = await call.rotateSecret({ workspaceId, webhookId: endpoint.webhookId });
  const latest = await signed(endpoint.webhookId);
  t.ok(latest.check(fourth.secret) && latest.check(third.secret));
  t.notOk(latest.check(rotated.secret));
});

t.test('outcomes: 410 disables, five days of failures disable, a success ends the streak', async (t) => {
  const workspaceId = await newWorkspace();
  const gone = await call.create({ workspaceId, webhookId: newWebhookId(), body: body() });
  t.strictSame(await call.noteOutcome({ webhookId: gone.webhookId, outcome: 'gone' }), { disabledReason: 'gone' });
  t.match(await call.get({ workspaceId, webhookId: gone.webhookId }), { status: 'disabled', disabledReason: 'gone' });
  t.equal((await call.sign({ webhookId: gone.webhookId, messageId: newDeliveryId(), timestamp: 1, body: '{}' }))?.status, 'disabled', 'sign tells the deliverer');
  t.strictSame(await call.noteOutcome({ webhookId: gone.webhookId, outcome: 'failed' }), { disabledReason: 'gone' }, 'stays disabled for its reason');

  const failing = await call.create({ workspaceId, webhookId: newWebhookId(), body: body() });
  const note = (outcome: 'succeeded' | 'failed' | 'gone') => call.noteOutcome({ webhookId: failing.webhookId, outcome });
  const failingSince = async () => (await storedRow(failing.webhookId))!.failingSince?.toISOString() ?? null;
  t.strictSame(await note('succeeded'), { disabledReason: null });
  t.strictSame(await note('failed'), { disabledReason: null });
  const streakStart = now().toISOString();
  t.equal(await failingSince(), streakStart, 'the first failure starts the streak');
  advance(4 * DAY);
  t.strictSame(await note('failed'), { disabledReason: null }, 'four days: still enabled');
  t.equal(await failingSince(), streakStart, 'later failures keep its start');
  t.strictSame(await note('succeeded'), { disabledReason: null });
  t.equal(await failingSince(), null, 'a success ends it');
  advance(2 * DAY);
  t.strictSame(await note('failed'), { disabledReason: null }, 'a new streak starts');
  advance(WEBHOOK_LIMITS.failingDisableMs - 1);
  t.strictSame(await note('failed'), { disabledReason: null }, 'just under five days');
  advance(1);
  t.strictSame(await note('failed'), { disabledReason: 'failing' }, 'five days of failures disable it');
  t.match(await call.get({ workspaceId, webhookId: failing.webhookId }), { status: 'disabled', disabledReason: 'failing' });
  t.strictSame(await call.subscribers({ workspaceId, eventType: 'job.completed' }), { webhookIds: [] }, 'disabled endpoints get no events');

  const enabled = await call.update({ workspaceId, webhookId: failing.webhookId, changes: { status: 'enabled' } });
  t.match(enabled, { status: 'enabled', disabledReason: null });
  t.equal(await failingSince(), null, 'enabling clears the streak');
  t.strictSame(await note('failed'), { disabledReason: null }, 'so one failure does not disable it again');
  t.equal(await codeOf(call.noteOutcome({ webhookId: 'wh_01JZZZZZZZZZZZZZZZZZZZZZZZ', outcome: 'failed' })), 'webhook_not_found');
});

t.test('subscribers: the workspace\'s enabled endpoints subscribed to the event', async (t) => {
  const workspaceId = await newWorkspace();
  const both = await call.create({ workspaceId, webhookId: newWebhookId(), body: body(undefined, ['job.completed', 'job.failed']) });
  advance(1);
  const completed = await call.create({ workspaceId, webhookId: newWebhookId(), body: body(undefined, ['job.completed']) });
  advance(1);
  await call.create({ workspaceId, webhookId: newWebhookId(), body: body(undefined, ['trackedSearch.run.completed']) });
  const paused = await call.create({ workspaceId, webhookId: newWebhookId(), body: body(undefined, ['job.completed']) });
  await call.update({ workspaceId, webhookId: paused.webhookId, changes: { status: 'disabled' } });
  const elsewhere = await newWorkspace();
  await call.create({ workspaceId: elsewhere, webhookId: newWebhookId(), body: body(undefined, ['job.completed']) });

  t.strictSame(await call.subscribers({ workspaceId, eventType: 'job.completed' }), { webhookIds: [both.webhookId, completed.webhookId] });
  t.strictSame(await call.subscribers({ workspaceId, eventType: 'job.failed' }), { webhookIds: [both.webhookId] });
  t.strictSame(await call.subscribers({ workspaceId, eventType: 'job.cancelled' }), { webhookIds: [] });
  t.strictSame(await call.subscribers({ workspaceId, eventType: 'trackedSearch.run.failed' }), { webhookIds: [] });
  await call.update({ workspaceId, webhookId: paused.webhookId, changes: { status: 'enabled' } });
  t.equal((await call.subscribers({ workspaceId, eventType: 'job.completed' })).webhookIds.length, 3, 'enabled again, it is one');
});

t.test('WEBHOOK_SECRET_KEY is required at boot and must be 32 bytes of base64', async (t) => {
  const base = { INTERNAL_TOKEN: 'x'.repeat(32) };
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadAccountsConfig(env);
      return [];
    } catch (error) {
      return error instanceof ConfigError ? error.problems : [String(error)];
    }
  };
  t.match(problemsOf(base), [/^WEBHOOK_SECRET_KEY: is required/]);
  t.match(problemsOf({ ...base, WEBHOOK_SECRET_KEY: 'c2hvcnQ=' }), [/^WEBHOOK_SECRET_KEY: must be base64 of exactly 32 bytes/]);
  t.match(problemsOf({ ...base, WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex') }), [/^WEBHOOK_SECRET_KEY:/]);
  const config = loadAccountsConfig({ ...base, WEBHOOK_SECRET_KEY: secretKey, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: 'receiver.internal,hooks.local' });
  t.equal(config.webhooks.secretKey, secretKey);
  t.strictSame(config.webhooks.policy, { allowHttp: true, allowedHosts: ['receiver.internal', 'hooks.local'] });
});
