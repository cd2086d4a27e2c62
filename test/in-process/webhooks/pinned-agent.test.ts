import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import t from 'tap';
import { request } from 'undici';
import { pinnedAgent } from '@comps/shared/webhooks/pinned-agent';

/** Listens on a free port until the end of the file, when its connections are cut (a keep-alive one would keep it open). */
async function listening(server: NetServer, host = '127.0.0.1'): Promise<{ port: number }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => sockets.add(socket.once('close', () => sockets.delete(socket))));
  server.listen(0, host);
  await once(server, 'listening');
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port: (server.address() as AddressInfo).port };
}

/** A receiver on 127.0.0.1 that records what reaches it and answers with `answer`. */
async function receiver(answer: (request: IncomingMessage) => { status: number; headers?: Record<string, string> }) {
  const seen: Array<{ method: string; url: string; host: string; body: string }> = [];
  const { port } = await listening(
    createServer(async (incoming, response) => {
      let body = '';
      for await (const chunk of incoming) body += chunk;
      seen.push({ method: incoming.method!, url: incoming.url!, host: incoming.headers.host!, body });
      const { status, headers } = answer(incoming);
      response.writeHead(status, headers).end('answered');
    }),
  );
  return { port, seen };
}

t.test('every connection goes to the pinned address, whatever the URL\'s host: no DNS lookup', async (t) => {
  const { port, seen } = await receiver(() => ({ status: 200 }));
  const agent = pinnedAgent({ address: '127.0.0.1', family: 4 });
  t.teardown(() => agent.close());
  // `.invalid` never resolves (RFC 6761): reaching the receiver proves the name was not looked up.
  for (const host of ['some-name.invalid', 'another.invalid']) {
    const answer = await request(`http://${host}:${port}/hook`, { method: 'POST', body: '{"type":"webhook.test"}', dispatcher: agent });
    t.equal(answer.statusCode, 200, host);
    t.equal(await answer.body.text(), 'answered');
  }
  t.strictSame(seen, [
    { method: 'POST', url: '/hook', host: `some-name.invalid:${port}`, body: '{"type":"webhook.test"}' },
    { method: 'POST', url: '/hook', host: `another.invalid:${port}`, body: '{"type":"webhook.test"}' },
  ], 'the Host header is still the URL\'s');
});

t.test('a redirect comes back as it is, not followed', async (t) => {
  const target = await receiver(() => ({ status: 200 }));
  const redirecting = await receiver(() => ({ status: 302, headers: { location: `http://127.0.0.1:${target.port}/elsewhere` } }));
  const agent = pinnedAgent({ address: '127.0.0.1', family: 4 });
  t.teardown(() => agent.close());
  const answer = await request(`http://some-name.invalid:${redirecting.port}/hook`, { method: 'POST', body: '{}', dispatcher: agent });
  await answer.body.dump();
  t.equal(answer.statusCode, 302);
  t.equal(answer.headers.location, `http://127.0.0.1:${target.port}/elsewhere`);
  t.equal(redirecting.seen.length, 1);
  t.equal(target.seen.length, 0, 'the redirect\'s target was never asked');
});

t.test('TLS still names the URL\'s host (SNI), while the connection goes to the pinned address', async (t) => {
  const names: string[] = [];
  // A TLS server without a certificate: it records the name the client asks for, then ends the handshake.
  const { port } = await listening(
    createTlsServer({
      SNICallback: (servername, callback) => {
        names.push(servername);
        callback(new Error('no certificate here'));
      },
    }),
  );
  const agent = pinnedAgent({ address: '127.0.0.1', family: 4 });
  t.teardown(() => agent.close());
  await t.rejects(request(`https://hooks.some-name.invalid:${port}/`, { dispatcher: agent }), 'no certificate, no answer');
  t.strictSame(names, ['hooks.some-name.invalid']);
});

t.test('the connect timeout applies', async (t) => {
  // A local server that takes the connection and never answers the TLS handshake, which undici counts in the connect time.
  const { port } = await listening(createNetServer(() => {}));
  const agent = pinnedAgent({ address: '127.0.0.1', family: 4 }, { connectTimeoutMs: 200 });
  t.teardown(() => agent.close());
  const started = Date.now();
  await t.rejects(request(`https://some-name.invalid:${port}/`, { dispatcher: agent }), { code: 'UND_ERR_CONNECT_TIMEOUT' });
  t.ok(Date.now() - started < 5000, 'ended by the timeout, not undici\'s default 10 s');
});

async function canListenOn(host: string): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(0, host, () => probe.close(() => resolve(true)));
  });
}

t.test('an IPv6 address is pinned too', { skip: (await canListenOn('::1')) ? false : 'no IPv6 loopback on this machine' }, async (t) => {
  const { port } = await listening(createServer((_incoming, response) => response.end('v6')), '::1');
  const agent = pinnedAgent({ address: '::1', family: 6 });
  t.teardown(() => agent.close());
  const answer = await request(`http://some-name.invalid:${port}/`, { dispatcher: agent });
  t.equal(await answer.body.text(), 'v6');
});
