import { createHmac } from 'node:crypto';
import t from 'tap';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { WEBHOOK_SECRET_PATTERN } from '@comps/shared/contract/webhook';
import { newWebhookSecret, signatureHeader } from '@comps/shared/webhooks/signature';
import { forAll, integerBetween } from '../../helpers/property-test.js';

// The Standard Webhooks repository's published vector (its JavaScript and Python libraries' "sign function" tests).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  messageId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const nowSeconds = () => Math.floor(Date.now() / 1000);
const headersOf = (messageId: string, timestamp: number, signature: string) => ({ 'webhook-id': messageId, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature });
/** What a receiver does with the Standard Webhooks library: throws unless one of the signatures is right. */
const verify = (secret: string, body: string, headers: Record<string, string>) => new Webhook(secret).verify(body, headers);

t.test('the specification\'s published test vector', async (t) => {
  t.equal(signatureHeader([VECTOR.secret], VECTOR.messageId, VECTOR.timestamp, VECTOR.body), VECTOR.signature);
});

t.test('the signature is v1 and base64 of HMAC-SHA256 over id.timestamp.body with the secret\'s bytes, computed apart', async (t) => {
  forAll(50, (random) => {
    const secret = newWebhookSecret();
    const messageId = `msg_${integerBetween(random, 0, 1e9)}`;
    const timestamp = integerBetween(random, 0, 4_000_000_000);
    const body = JSON.stringify({ type: 'job.completed', note: 'ünïcode ✓ '.repeat(integerBetween(random, 0, 50)) });
    const expected = `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
    const actual = signatureHeader([secret], messageId, timestamp, body);
    if (actual !== expected) throw new Error(`${actual} !== ${expected}`);
  });
  t.pass('50 random messages agree with node:crypto');
});

t.test('new secrets: whsec_ and base64 of 32 random bytes, all different', async (t) => {
  const secrets = Array.from({ length: 200 }, newWebhookSecret);
  for (const secret of secrets) {
    if (!WEBHOOK_SECRET_PATTERN.test(secret)) throw new Error(`not the contract's format: ${secret}`);
    if (Buffer.from(secret.slice('whsec_'.length), 'base64').length !== 32) throw new Error(`not 32 bytes: ${secret}`);
  }
  t.equal(new Set(secrets).size, secrets.length, 'no two alike');
});

t.test('a receiver\'s Standard Webhooks library verifies what we sign', async (t) => {
  const secret = newWebhookSecret();
  const timestamp = nowSeconds();
  const body = JSON.stringify({ type: 'job.completed', timestamp: new Date().toISOString(), data: { jobId: 'job_1' } });
  const headers = headersOf('msg_01JABCDEFGHJKMNPQRSTVWXYZ0', timestamp, signatureHeader([secret], 'msg_01JABCDEFGHJKMNPQRSTVWXYZ0', timestamp, body));
  t.strictSame(verify(secret, body, headers), JSON.parse(body), 'verified, and the body handed back');
  t.throws(() => verify(newWebhookSecret(), body, headers), WebhookVerificationError, 'another secret does not verify');
});

t.test('during a rotation: two signatures, in the order given, each verifying alone', async (t) => {
  const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
  const timestamp = nowSeconds();
  const body = '{"type":"webhook.test"}';
  const header = signatureHeader([current, previous], 'msg_1', timestamp, body);
  const parts = header.split(' ');
  t.equal(parts.length, 2, 'space-separated');
  t.equal(parts[0], signatureHeader([current], 'msg_1', timestamp, body), 'the current secret first');
  t.equal(parts[1], signatureHeader([previous], 'msg_1', timestamp, body), 'then the previous one');
  for (const secret of [current, previous]) t.ok(verify(secret, body, headersOf('msg_1', timestamp, header)), 'a receiver with either secret verifies the header');
  for (const [index, secret] of [current, previous].entries()) t.ok(verify(secret, body, headersOf('msg_1', timestamp, parts[index]!)), 'each signature verifies alone');
  t.throws(() => verify(current, body, headersOf('msg_1', timestamp, parts[1]!)), WebhookVerificationError, 'the old signature alone does not pass for the new secret');
});

t.test('tampering is refused', async (t) => {
  const secret = newWebhookSecret();
  const timestamp = nowSeconds();
  const body = '{"type":"job.completed","data":{"jobId":"job_1"}}';
  const signature = signatureHeader([secret], 'msg_1', timestamp, body);
  t.throws(() => verify(secret, body.replace('job_1', 'job_2'), headersOf('msg_1', timestamp, signature)), WebhookVerificationError, 'a changed body');
  t.throws(() => verify(secret, `${body} `, headersOf('msg_1', timestamp, signature)), WebhookVerificationError, 'one space more');
  t.throws(() => verify(secret, body, headersOf('msg_1', timestamp - 1, signature)), WebhookVerificationError, 'a changed timestamp');
  t.throws(() => verify(secret, body, headersOf('msg_2', timestamp, signature)), WebhookVerificationError, 'a changed message id');
  const stale = timestamp - 10 * 60;
  t.throws(() => verify(secret, body, headersOf('msg_1', stale, signatureHeader([secret], 'msg_1', stale, body))), WebhookVerificationError, 'a replay past the receiver\'s tolerance');
});

t.test('what cannot be signed safely is refused', async (t) => {
  const secret = newWebhookSecret();
  t.throws(() => signatureHeader([], 'msg_1', 1, '{}'), /at least one secret/);
  t.throws(() => signatureHeader([secret], 'msg.1', 1, '{}'), /without "\."/, 'a "." in the id would blur what was signed');
  t.throws(() => signatureHeader([secret], '', 1, '{}'), /non-empty/);
  for (const timestamp of [-1, 1.5, Number.NaN]) t.throws(() => signatureHeader([secret], 'msg_1', timestamp, '{}'), /whole Unix seconds/, `timestamp ${timestamp}`);
  t.throws(() => signatureHeader([secret.slice('whsec_'.length)], 'msg_1', 1, '{}'), /starts with whsec_/, 'a bare key');
  t.throws(() => signatureHeader(['whsec_not base64!'], 'msg_1', 1, '{}'), Error, 'a key that is not base64');
});
