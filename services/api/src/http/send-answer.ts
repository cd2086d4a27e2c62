import type { ServerResponse } from 'node:http';

/** An answer ready for the wire: the status, every header, and the body. */
export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | ((out: ServerResponse) => Promise<void>);
}

/**
 * Writes an answer on the response and says whether it was received whole: true once the last
 * byte was handed to the socket (`finish`), false when the connection closed first. A body that is
 * a function streams (it writes; this ends the response after it, or cuts the connection when it
 * fails part way). A charge waits on this answer.
 */
export async function sendAnswer(res: ServerResponse, answer: WireAnswer, onStreamError: (error: unknown) => void): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return false;
  const received = new Promise<boolean>((resolve) => {
    res.once('finish', () => resolve(true));
    res.once('close', () => resolve(res.writableFinished));
  });
  res.writeHead(answer.status, answer.headers);
  if (typeof answer.body === 'string') {
    res.end(answer.body);
  } else {
    try {
      await answer.body(res);
      if (!res.destroyed) res.end();
    } catch (error) {
      // A stream that broke off must not end like a whole one (a truncated CSV read as complete): cut
      // the connection. A caller that went away is no fault of ours.
      if (!res.destroyed) onStreamError(error);
      res.destroy();
    }
  }
  return received;
}
