import t from 'tap';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

const stack = await startInProcessStack(t);
const api = await stack.startApi();
const { apiKey } = await createWorkspace(stack);

t.test('an unknown route is 404 not_found, with or without a key', async (t) => {
  for (const path of ['/nope', '/v2/scrape', '/v1/', '/usage/extra']) {
    assertError(t, await request(api.baseUrl, path), 404, 'not_found');
    assertError(t, await request(api.baseUrl, path, { apiKey }), 404, 'not_found');
  }
});

t.test('a known path with a method it does not serve is 405 method_not_allowed with Allow', async (t) => {
  const cases: Array<[string, string, string | undefined]> = [
    ['POST', '/usage', apiKey],
    ['DELETE', '/v1/capabilities', undefined],
    ['PUT', '/v1/scrape?keyword=lamp', apiKey],
    ['OPTIONS', '/requests', apiKey],
    ['PATCH', '/v1/item/311280697654', apiKey],
  ];
  for (const [method, path, key] of cases) {
    const response = await request(api.baseUrl, path, { method, ...(key ? { apiKey: key } : {}), ...(method === 'POST' ? { body: {} } : {}) });
    assertError(t, response, 405, 'method_not_allowed');
    t.equal(response.headers.get('allow'), 'GET', `${method} ${path}: Allow: GET`);
  }
});

t.test('HEAD on a data endpoint is 405, uncharged, with no upstream call and no history', async (t) => {
  const workspace = await createWorkspace(stack);
  for (const path of ['/v1/scrape?keyword=lamp', '/public/scrape?keyword=lamp', '/v1/scrape/category?categoryId=7', '/v1/item/311280697654', '/usage']) {
    const response = await fetch(`${api.baseUrl}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${workspace.apiKey}` } });
    t.equal(response.status, 405, `HEAD ${path} is 405`);
    t.equal(response.headers.get('allow'), 'GET');
    t.match(response.headers.get('x-request-id'), /^req_/);
  }
  const usage = await request(api.baseUrl, '/usage', { apiKey: workspace.apiKey });
  t.equal(usage.body.used, 0, 'nothing charged');
  t.equal(usage.body.remaining, usage.body.plan.monthlyQuota, 'nothing reserved');
  const history = await eventually('the /usage request reaches the history', async () => {
    const page = await request(api.baseUrl, '/requests', { apiKey: workspace.apiKey });
    return page.body.entries.length >= 1 ? page.body.entries : undefined;
  });
  const paths = history.map((entry: { path: string }) => entry.path).filter((path: string) => path !== '/requests');
  t.strictSame(paths, ['/usage'], 'only the GET /usage is in the history (beside the reads of it)');
});

t.test('a 401 names the bearer scheme in WWW-Authenticate', async (t) => {
  const cases: Array<Record<string, string>> = [{}, { authorization: 'Bearer sk_nope' }, { authorization: `Bearer sk_${'Z'.repeat(40)}` }];
  for (const headers of cases) {
    const response = await request(api.baseUrl, '/usage', { headers });
    assertError(t, response, 401, 'unauthorized');
    t.match(response.headers.get('www-authenticate'), /^Bearer\b/);
  }
});

t.test('every answer carries its own X-Request-Id', async (t) => {
  const ids = new Set<string>();
  for (let i = 0; i < 5; i += 1) {
    const response = await request(api.baseUrl, '/v1/capabilities');
    ids.add(response.headers.get('x-request-id') ?? '');
  }
  t.equal(ids.size, 5);
});

t.test('a request id sent by the caller is not trusted', async (t) => {
  const response = await request(api.baseUrl, '/nope', { headers: { 'x-request-id': 'req_spoofed' } });
  t.not(response.body.requestId, 'req_spoofed');
});
