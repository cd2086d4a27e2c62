/**
 * Calls `onGone` once when the process that started this one with an IPC channel (the `npm start` launcher) is gone:
 * the channel closes when the launcher exits, even when it is killed with SIGKILL, so a service never outlives it.
 * Started without a channel (compose, systemd, a shell), a service has no parent to watch. The channel does not keep
 * the process alive by itself.
 */
export function onParentGone(onGone: () => void): void {
  if (typeof process.send !== 'function') return;
  if (!process.connected) {
    queueMicrotask(onGone);
    return;
  }
  process.channel?.unref();
  process.once('disconnect', onGone);
}
