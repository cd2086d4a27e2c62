import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { startAndCheckPrevious, stopWithSearchesInFlight, type StopChain } from './launcher-checks.js';

// `npm start` stopped from a terminal: SIGINT twice to the process group with the output in a file, and Ctrl-C typed
// twice on a real (pseudo-)terminal, which signals npm and the launcher alike. Searches in flight finish 200 and are
// charged once (read from the next stack), the stack stops in order, nothing of it is left 15 s after the signal.

const chain: StopChain = {};

t.test('SIGINT twice to the group, output in a file', async (t) => {
  const stack = await startAndCheckPrevious(t, chain, 'file');
  await stopWithSearchesInFlight(t, chain, stack, async () => {
    process.kill(-stack.npm.pid!, 'SIGINT');
    await sleep(300);
    process.kill(-stack.npm.pid!, 'SIGINT');
  });
});

t.test('Ctrl-C typed twice on a terminal', async (t) => {
  const stack = await startAndCheckPrevious(t, chain, 'terminal');
  await stopWithSearchesInFlight(t, chain, stack, async () => {
    stack.typeCtrlC();
    await sleep(300);
    stack.typeCtrlC();
  });
});

t.test('the searches in flight at the last Ctrl-C were charged once', async (t) => {
  t.ok(chain.previous, 'the last stop left its searches to check');
  const stack = await startAndCheckPrevious(t, chain);
  stack.npm.kill('SIGTERM');
  t.equal((await stack.exited).code, 0, 'and this stack stops cleanly too');
});
