import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors/app-error.js';
import { interpretSearchAnswer } from './interpret-answer.js';
import { THREAD_READY, type ParseReply, type ParseRequest } from './parse-threads.js';

/**
 * A parse thread (parse-threads.ts): reads each search answer it is sent as the calling thread would
 * (`interpretSearchAnswer`) and answers with the parsed page, or the contract error and, for an
 * unrecognized layout, what the layout watch is to be told on the calling thread.
 */
const port = parentPort!;
// A request that cannot be read leaves a page unanswered: the thread exits, and its pages fail on the calling thread.
port.on('messageerror', () => process.exit(1));
port.on('message', ({ id, status, body, url, retryAfterSeconds, site }: ParseRequest) => {
  let layout: ParseReply['layout'];
  const watch = { record: (_site: unknown, rowClasses: string | null) => (layout = { rowClasses }) };
  let reply: ParseReply;
  try {
    reply = { id, page: interpretSearchAnswer({ status, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength), url, retryAfterSeconds }, site, watch) };
  } catch (error) {
    if (error instanceof AppError) {
      reply = { id, error: { code: error.code, message: error.message, ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }) } };
    } else {
      // A bug in reading the page: the calling thread logs it, and the caller gets internal_error.
      reply = { id, error: { code: 'internal_error', message: 'Internal error' }, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
  }
  port.postMessage(layout ? { ...reply, layout } : reply);
});
// Every module is loaded: the pages' deadlines run from here.
port.postMessage(THREAD_READY);
