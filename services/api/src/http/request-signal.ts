import { setMaxListeners } from 'node:events';
import type { Context } from 'koa';

/** The reason a request's signal gives when its caller went away (not an AppError: nobody is answered). */
export class CallerLeft extends Error {
  constructor() {
    super('The caller closed the connection before its answer');
    this.name = 'CallerLeft';
  }
}

/**
 * A signal for one request: aborted when its connection closes before the answer was written, or
 * when the service stops (with `stopping`'s reason, an AppError the caller is answered with).
 */
export function requestSignal(ctx: Context, stopping: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  // A bulk search's keywords each listen to it (the fetch, the waits): many listeners, by design.
  setMaxListeners(0, controller.signal);
  const onClose = () => {
    if (!ctx.res.writableFinished) controller.abort(new CallerLeft());
  };
  const onStop = () => controller.abort(stopping.reason);
  ctx.res.once('close', onClose);
  if (stopping.aborted) onStop();
  else stopping.addEventListener('abort', onStop, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      ctx.res.off('close', onClose);
      stopping.removeEventListener('abort', onStop);
    },
  };
}
