import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface ReceivedEvent extends EventSourceMessage {
  /** When it arrived, ms after the request was sent. */
  at: number;
  payload: any;
}

export interface EventStreamCall {
  status: number;
  headers: Headers;
  /** For an answer that is not a stream: its JSON body. */
  json: any;
  events: ReceivedEvent[];
  comments: Array<{ text: string; at: number }>;
  /** Resolves when the stream ends (or the reader stops). */
  done: Promise<void>;
}

/**
 * POSTs and reads the answer as a caller would: a JSON error, or a server-sent event stream parsed
 * by a real event-stream parser (eventsource-parser), each event and comment with its arrival time.
 * `onEvent` may abort the request (a caller that goes away).
 */
export async function postEventStream(
  url: string,
  options: { apiKey?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; signal?: AbortSignal; onEvent?: (event: ReceivedEvent) => void },
): Promise<EventStreamCall> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: options.signal,
  });
  const call: EventStreamCall = { status: response.status, headers: response.headers, json: undefined, events: [], comments: [], done: Promise.resolve() };
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const text = await response.text();
    try {
      call.json = JSON.parse(text);
    } catch {
      call.json = text;
    }
    return call;
  }
  const parser = createParser({
    onEvent(message) {
      const event: ReceivedEvent = { ...message, at: performance.now() - started, payload: JSON.parse(message.data) };
      call.events.push(event);
      options.onEvent?.(event);
    },
    onComment(text) {
      call.comments.push({ text, at: performance.now() - started });
    },
  });
  const decoder = new TextDecoder();
  call.done = (async () => {
    try {
      for await (const chunk of response.body!) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch (error) {
      if (!options.signal?.aborted) throw error;
    }
  })();
  return call;
}
