/**
 * An AbortSignal that fires after `ms` unless released first. Unlike AbortSignal.timeout, the
 * timer is cleared as soon as the work is done, so busy processes do not keep thousands of pending
 * timers (and everything they reach) alive until they fire.
 */
export function deadline(ms: number, parent?: AbortSignal | null): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')), ms);
  const forward = () => controller.abort(parent?.reason);
  if (parent) {
    if (parent.aborted) forward();
    else parent.addEventListener('abort', forward, { once: true });
  }
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', forward);
    },
  };
}
