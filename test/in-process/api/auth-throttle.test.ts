import t from 'tap';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';
import { PrincipalCache } from '../../../services/api/src/auth/principal-cache.js';
import type { Principal } from '@comps/shared/internal/accounts/principal';

t.test('an address that presents bad keys too often gets 429 for its bad keys; its valid keys are never held up', async (t) => {
  const stack = await startInProcessStack(t);
  const api = await stack.startApi({ env: { AUTH_FAILURES_PER_MINUTE: '5' } });
  const cached = await createWorkspace(stack);
  const fresh = await createWorkspace(stack);
  t.equal((await request(api.baseUrl, '/usage', { apiKey: cached.apiKey })).status, 200, 'a valid key, now cached');

  for (let i = 0; i < 5; i += 1) {
    assertError(t, await request(api.baseUrl, '/usage', { apiKey: `sk_${String(i).repeat(40)}` }), 401, 'unauthorized');
  }
  assertError(t, await request(api.baseUrl, '/usage', { headers: { authorization: 'Bearer sk_malformed' } }), 429, 'rate_limited');
  const refused = await request(api.baseUrl, '/usage', { apiKey: `sk_${'9'.repeat(40)}` });
  const body = assertError(t, refused, 429, 'rate_limited');
  t.ok((body.retryAfter ?? 0) >= 1 && (body.retryAfter ?? 0) <= 60, `retry after ${body.retryAfter} s`);
  t.equal((await request(api.baseUrl, '/usage', { apiKey: fresh.apiKey })).status, 200, 'a valid key never used from that address is answered');
  t.equal((await request(api.baseUrl, '/usage', { apiKey: cached.apiKey })).status, 200, 'and so is one used before');
  assertError(t, await request(api.baseUrl, '/usage'), 401, 'unauthorized');
});

t.test('unknown keys never push a valid key out of the auth cache', async (t) => {
  const cache = new PrincipalCache(60_000, 100);
  const principal = { workspaceId: 'ws_1' } as Principal;
  cache.set('valid', principal, 0);
  for (let i = 0; i < 10_000; i += 1) cache.set(`unknown-${i}`, null, 1);
  t.equal(cache.get('valid', 2), principal, 'the valid key is still cached');
  t.equal(cache.get('unknown-9999', 2), null, 'the newest unknown key is cached as unknown');
  t.equal(cache.get('unknown-0', 2), undefined, 'the oldest unknown ones made room for newer ones');
  t.equal(cache.get('valid', 60_001), undefined, 'entries still expire');
  cache.set('revoked', principal, 0);
  cache.set('revoked', null, 1);
  t.equal(cache.get('revoked', 2), null, 'a key found revoked is no longer known');
});
