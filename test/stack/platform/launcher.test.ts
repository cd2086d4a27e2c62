import t from 'tap';
import { expectStopped, startAndCheckPrevious, stopWithSearchesInFlight, type StopChain } from './launcher-checks.js';

// `npm start` as operators run it, stopped by a process manager: SIGTERM to npm's process (one known pid), SIGTERM to
// the whole process group with the output on a pipe (docker stop, systemd), and the launcher killed outright. Searches
// are in flight each time (the simulator holds each for 2 s): they must finish 200, be charged once and be in the
// history (read from the next stack), the stack must stop in order, and nothing of it may be left 15 s after the
// signal. launcher-interrupt.test.ts does the same with Ctrl-C.

const chain: StopChain = {};

t.test('SIGTERM to the npm start process', async (t) => {
  const stack = await startAndCheckPrevious(t, chain);
  await stopWithSearchesInFlight(t, chain, stack, () => {
    stack.npm.kill('SIGTERM');
  });
});

t.test('SIGTERM to the whole process group, output on a pipe', async (t) => {
  const stack = await startAndCheckPrevious(t, chain);
  await stopWithSearchesInFlight(t, chain, stack, () => {
    process.kill(-stack.npm.pid!, 'SIGTERM');
  });
});

t.test('the launcher killed outright (SIGKILL, OOM) takes the whole stack with it', async (t) => {
  // The services see their IPC channel close; Caddy gets its parent-death signal.
  const stack = await startAndCheckPrevious(t, chain);
  const pids = stack.pids();
  const killedAt = Date.now();
  process.kill(pids.get('launcher')!, 'SIGKILL');
  await expectStopped(t, stack, pids, killedAt);
});
