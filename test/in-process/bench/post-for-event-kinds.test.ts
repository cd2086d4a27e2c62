import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { createParser } from 'eventsource-parser';
import t from 'tap';
import { EventStream } from '@comps/shared/http/event-stream';
import { postForEventKinds } from '../../../bench/post-for-event-kinds.js';

/** The bytes the api's own writer sends for a bulk search's events, a keep-alive among them. */
async function streamBytes(): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const stream = new EventStream(out, 5);
  for (let index = 0; index < 24; index += 1) {
    await stream.send(index % 5 === 4 ? 'error' : 'result', { index, keyword: `keyword ${index}`, items: 'x'.repeat((index * 7919) % 3000) });
    if (index === 10) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await stream.send('complete', { total: 24 });
  stream.stop();
  return Buffer.concat(chunks);
}

/** Serves `bytes` as an event stream cut at the given lengths, one write a turn of the event loop. */
async function serveCut(bytes: Buffer, cutLengths: () => number): Promise<{ url: string; close: () => void }> {
  const server = http.createServer(async (request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let at = 0; at < bytes.length; ) {
      const length = cutLengths();
      response.write(bytes.subarray(at, at + length));
      at += length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** A small deterministic generator, so that a failure names cuts that can be made again. */
function lengths(seed: number, longest: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return 1 + (state % longest);
  };
}

t.test("the bench's reader finds the events an event-stream parser finds, in order, wherever the stream is cut", async (t) => {
  const lf = await streamBytes();
  t.ok(lf.includes(': keep-alive\n\n'), 'a keep-alive comment among the events');
  for (const [name, bytes] of [['LF', lf], ['CRLF', Buffer.from(lf.toString('latin1').replaceAll('\n', '\r\n'), 'latin1')]] as const) {
    const expected: string[] = [];
    createParser({ onEvent: (event) => expected.push(event.event ?? 'message') }).feed(bytes.toString('utf8'));
    t.equal(expected.length, 25, `${name}: the parser's count`);
    for (const [seed, longest] of [[1, 1], [2, 3], [3, 9], [4, 64], [5, 700], [6, 4000], [7, 70_000]] as const) {
      const served = await serveCut(bytes, lengths(seed, longest));
      try {
        const read = await postForEventKinds(served.url, { apiKey: 'key', body: {} });
        t.equal(read.status, 200);
        t.same(
          read.events.map((event) => event.event),
          expected,
          `${name}, cuts of 1 to ${longest} bytes`,
        );
        t.ok(read.events.every((event, index) => index === 0 || event.at >= read.events[index - 1]!.at), 'arrival times in order');
      } finally {
        served.close();
      }
    }
  }
});
