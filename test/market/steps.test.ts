import t from 'tap';
import { runSteps, runStepsInTurns, type Steps } from '@comps/shared/runtime/steps';
import { parseSearchPage, searchPageSteps } from '@comps/shared/market/parse/search-page';
import { readFixture } from '../helpers/fixtures.js';

// Work in steps: all at once, or a few steps a turn of the event loop (a page's parse in the services).

/** `count` steps, each noting what `seen()` says as it runs; answers `count`, and notes whether it was finished (its `finally`). */
function* counted(count: number, seen: () => number, log: number[], finished: { done: boolean }): Steps<number> {
  try {
    for (let step = 0; step < count; step += 1) {
      log.push(seen());
      yield;
    }
    return count;
  } finally {
    finished.done = true;
  }
}

/** How many turns of the event loop have passed since it started (one `setImmediate` a turn), until stopped. */
function loopTurns(): { turns: () => number; stop: () => void } {
  let turns = 0;
  let timer = setImmediate(function tick() {
    turns += 1;
    timer = setImmediate(tick);
  });
  return { turns: () => turns, stop: () => clearImmediate(timer) };
}

t.test('at once: every step in this turn, and the answer', async (t) => {
  const loop = loopTurns();
  const log: number[] = [];
  const finished = { done: false };
  t.equal(runSteps(counted(50, loop.turns, log, finished)), 50);
  loop.stop();
  t.strictSame(log, Array(50).fill(0), 'no turn of the event loop in between');
  t.ok(finished.done);
});

t.test('in turns: exactly `stepsPerTurn` steps a turn, the event loop let in once between, the same answer', async (t) => {
  for (const [count, perTurn] of [[0, 1], [1, 1], [7, 1], [16, 16], [17, 16], [200, 16], [45, 7], [3, 100]] as const) {
    const loop = loopTurns();
    const log: number[] = [];
    const finished = { done: false };
    const answer = await runStepsInTurns(counted(count, loop.turns, log, finished), perTurn);
    loop.stop();
    t.equal(answer, count, `${count} steps, ${perTurn} a turn: the answer`);
    t.strictSame(log, Array.from({ length: count }, (_, step) => Math.floor(step / perTurn)), `${count} steps, ${perTurn} a turn: the turn each step ran in`);
    t.ok(finished.done);
  }
});

t.test('a signal that aborts between turns ends the work with its reason; the steps left are not run, and their finally is', async (t) => {
  const stop = new AbortController();
  const log: number[] = [];
  const finished = { done: false };
  let step = 0;
  const running = runStepsInTurns(counted(100, () => (step += 1) === 10 ? (stop.abort(new Error('caller gone')), step) : step, log, finished), 4, stop.signal);
  await t.rejects(running, { message: 'caller gone' });
  t.equal(log.length, 12, 'the turn in which it aborted ran to its end (steps 9 to 12), no more');
  t.ok(finished.done, 'the work was finished off');
});

t.test('a turn of fewer than one step is refused, not looped on', async (t) => {
  for (const perTurn of [0, -1, 1.5, Number.NaN]) {
    await t.rejects(runStepsInTurns(counted(3, () => 0, [], { done: false }), perTurn), { name: 'RangeError' }, `${perTurn} a turn`);
  }
});

t.test('a page read in turns reads exactly as at once', async (t) => {
  const page = readFixture('sold_us_scard_sony_headphones.html');
  t.strictSame(await runStepsInTurns(searchPageSteps(page, 'market.com'), 1), parseSearchPage(page, 'market.com'));
});
