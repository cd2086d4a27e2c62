import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors/app-error.js';
import { loadNativeHelper, oneByteTextOf } from '../runtime/native-helper.js';
import { interpretSearchAnswer } from './interpret-answer.js';
import { THREAD_READY, type ParseReply, type ParseRequest } from './parse-threads.js';
import { PageText } from './parse/page-text.js';

/**
 * A parse thread (parse-threads.ts): reads each search answer it is sent as the calling thread would
 * (`interpretSearchAnswer`) and answers with the parsed page, or the contract error and, for an
 * unrecognized layout, what the layout watch is to be told on the calling thread.
 */
const port = parentPort!;
// The bytes come moved here, not copied: in the chunks they came in, joined here, or joined already by the calling thread (the
// api's); read into text by the helper where it was built (without a copy, or joined into memory an earlier page held).
const oneByteText = oneByteTextOf(loadNativeHelper());
// A request that cannot be read leaves a page unanswered: the thread exits, and its pages fail on the calling thread.
port.on('messageerror', () => process.exit(1));
port.on('message', ({ id, status, body, url, retryAfterSeconds, site }: ParseRequest) => {
  let layout: ParseReply['layout'];
  const watch = { record: (_site: unknown, rowClasses: string | null) => (layout = { rowClasses }) };
  let reply: ParseReply;
  try {
    const page = PageText.ofParts(body, oneByteText);
    reply = { id, page: interpretSearchAnswer({ status, body: page, url, retryAfterSeconds }, site, watch) };
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
// Every module is loaded: pages are sent from here on.
port.postMessage(THREAD_READY);
