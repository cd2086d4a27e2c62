import type { WebContext } from './web-state.js';

/** Aborted when the browser goes away before the answer is complete (a download cancelled mid-way). */
export function requestSignal(ctx: WebContext): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new Error('the browser went away'));
  });
  return controller.signal;
}
