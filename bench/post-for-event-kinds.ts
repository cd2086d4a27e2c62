import { request } from 'undici';

/** An event of a server-sent event stream as the bench needs it: its kind, and when it arrived (ms after the request was sent). */
export interface EventArrival {
  event: string;
  at: number;
}

/** The longest start of a line kept to tell its field: `event: ` and a kind's name. */
const LINE_HEAD_BYTES = 64;
const EVENT_FIELD = Buffer.from('event: ');

/**
 * POSTs and reads the answer's event stream for the kinds of its events and their arrival times alone,
 * the data of none parsed. bench:bulk's client shares the machine's two cores with the stack it
 * measures, and in the window where twenty results arrive together the tests' reader
 * (test/helpers/event-stream.ts: a full event-stream parser, and each event's data, about 45 KB,
 * parsed as JSON) took 42–64 ms of CPU, up to a fifth of all the machine did there. The events' content is
 * what the tests check; the bench times them. It reads the stream as the api writes it
 * (shared/src/http/event-stream.ts): lines ended by LF or CRLF, every event with an `event: ` line (its kind
 * read up to 57 bytes), whole at the blank line after it, as an event-stream parser hands it over.
 */
export async function postForEventKinds(url: string, { apiKey, body }: { apiKey: string; body: unknown }): Promise<{ status: number; events: EventArrival[] }> {
  const started = performance.now();
  const response = await request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const events: EventArrival[] = [];
  // The start of the line being read, kept across chunks up to what tells its field; the kind of the event being read.
  let lineHead = Buffer.alloc(0);
  let kind: string | undefined;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    for (let from = 0; ; ) {
      const newline = chunk.indexOf(10, from);
      const piece = chunk.subarray(from, newline === -1 ? chunk.length : newline);
      if (lineHead.length < LINE_HEAD_BYTES) lineHead = Buffer.concat([lineHead, piece.subarray(0, LINE_HEAD_BYTES - lineHead.length)]);
      if (newline === -1) break;
      // A line ended by CRLF is read without its CR.
      if (lineHead.at(-1) === 13 && lineHead.length < LINE_HEAD_BYTES) lineHead = lineHead.subarray(0, -1);
      // An event is whole at the blank line after it, as an event-stream parser hands it over.
      if (lineHead.length === 0 && kind !== undefined) {
        events.push({ event: kind, at: performance.now() - started });
        kind = undefined;
      } else if (lineHead.subarray(0, EVENT_FIELD.length).equals(EVENT_FIELD)) kind = lineHead.subarray(EVENT_FIELD.length).toString();
      lineHead = Buffer.alloc(0);
      from = newline + 1;
    }
  }
  return { status: response.statusCode, events };
}
