import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import t from 'tap';
import { request } from '../../helpers/http-client.js';
import { createWorkspaceWithNpm, startNpmStack } from '../../helpers/test-stack.js';

// Search text never reaches a log line: after searches with a distinctive keyword that succeed, fail upstream, fail
// validation, are malformed, are too large or meet a stopped api, the whole stack's output (the launcher, every
// service and Caddy, at their most talkative levels) does not contain it.

const keyword = `zebracorn${randomBytes(4).toString('hex')}`;

function rawRequest(baseUrl: string, bytes: string): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
    setTimeout(() => socket.destroy(), 5000).unref();
  });
}

t.test('no log line carries the search text', async (t) => {
  const stack = await startNpmStack(t, { env: { LOG_LEVEL: 'trace', CADDY_LOG_LEVEL: 'DEBUG' } });
  const { apiKey } = await createWorkspaceWithNpm(stack);
  const search = (query: string) => request(stack.baseUrl, `/v1/scrape?${query}`, { apiKey });
  const text = (extra = '') => encodeURIComponent(`${keyword} lamp${extra}`);

  t.equal((await search(`keyword=${text()}&count=10`)).status, 200, 'a search that succeeds');
  t.equal((await search(`keyword=${text(' sim:error')}`)).status, 502, 'one the marketplace fails');
  t.equal((await search(`keyword=${text(' sim:block')}`)).body?.code, 'upstream_blocked', 'one behind a bot check');
  t.equal((await search(`keyword=${text()}&count=100000`)).status, 400, 'one with a bad parameter');
  t.equal((await search(`keyword=${text()}%zz`)).status, 200, 'one with a malformed escape in the query');
  t.match(await rawRequest(stack.baseUrl, `GET /v1/scrape/${keyword}%zz HTTP/1.1\r\nHost: x\r\n\r\n`), /^HTTP\/1\.1 400/, 'a malformed path');
  t.equal((await search(`keyword=${text()}${'x'.repeat(20_000)}`)).status, 400, 'one over 16 KB');
  t.equal(
    (await request(stack.baseUrl, '/v1/capabilities', { headers: { referer: `http://example.com/?q=${keyword}` } })).status,
    200,
    'one with the text in its Referer',
  );

  // With the api down, Caddy answers and logs the request itself.
  process.kill(stack.pids().get('api')!, 'SIGKILL');
  t.equal((await search(`keyword=${text()}`)).status, 503, 'one the api is not there for');
  await stack.waitForOutput(/^start: api restarted/m, 30_000);

  stack.npm.kill('SIGTERM');
  await stack.exited;
  const output = stack.output();
  t.match(output, /"route":"\/v1\/scrape"/, 'the api logged the searches');
  t.match(output, /"uri":"\/v1\/scrape\?\[query removed\]"/, 'Caddy logged requests, without their query');
  const leaks = output.split('\n').filter((line) => line.includes(keyword));
  t.strictSame(leaks, [], 'no log line contains the keyword');
});
