import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Delivery, WebhookWithSecret } from '@comps/shared/contract/webhook';
import { request } from './http-client.js';
import type { TestStack } from './test-stack.js';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that records every delivery and answers what `answer` says (a status, or never). */
export async function receiver(answer: (received: Received, index: number) => number | 'hang' = () => 200) {
  const received: Received[] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer((incoming, outgoing) => {
    let body = '';
    incoming.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    incoming.on('end', () => {
      const delivery = { headers: incoming.headers, body };
      received.push(delivery);
      const status = answer(delivery, received.length - 1);
      if (status === 'hang') {
        hanging.add(() => outgoing.destroy());
        return;
      }
      outgoing.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => {
      for (const drop of hanging) drop();
      server.close(() => resolve());
    }),
  };
}

/** What the operator sets so that deliveries may go to a receiver on 127.0.0.1 over http. */
export const ALLOWED = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };

/** Registers an endpoint through the API (201 expected); its secret is in the answer. */
export async function register(stack: TestStack, apiKey: string, url: string, events: string[]) {
  const created = await request<WebhookWithSecret>(stack.baseUrl, '/v1/webhooks', { method: 'POST', apiKey, body: { url, events } });
  if (created.status !== 201) throw new Error(`registration: ${created.status} ${created.text}`);
  return created.body;
}

/** An endpoint's delivery log, newest first. */
export const deliveriesOf = async (stack: TestStack, apiKey: string, webhookId: string) =>
  (await request<{ deliveries: Delivery[] }>(stack.baseUrl, `/v1/webhooks/${webhookId}/deliveries`, { apiKey })).body.deliveries;
