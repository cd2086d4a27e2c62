import type { ServerResponse } from 'node:http';

/** How an internal procedure's answer reaches its caller (tRPC writes it once the procedure returns). */
export interface Handover {
  /** Aborts when the caller goes away (a timeout, a browser that left the page) before the answer was written. */
  signal: AbortSignal;
  /**
   * Settles once the answer was written: true when it was a success handed to the socket whole,
   * false when the connection closed first or the answer was an error. A charge waits on it.
   */
  received(): Promise<boolean>;
}

/** The handover of the answer on `res`, for the procedures that charge only for an answer their caller got. */
export function handoverOf(res: ServerResponse): Handover {
  const controller = new AbortController();
  const written = new Promise<boolean>((resolve) => {
    res.once('finish', () => resolve(res.statusCode === 200));
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('the caller closed the connection before its answer'));
      resolve(res.writableFinished && res.statusCode === 200);
    });
  });
  return { signal: controller.signal, received: () => written };
}
