import t from 'tap';
import { retryDelayMs, type RetryPolicy } from '../../../services/jobs/src/tasks/retry-policy.js';
import { forAll, integerBetween } from '../../helpers/property-test.js';

const policy: RetryPolicy = { retries: 3, baseDelayMs: 1000, maxDelayMs: 3000, jitter: 0.1 };

t.test('backoff doubles from the base, is capped, and stops after the retries', async (t) => {
  const none = () => 0;
  t.strictSame([1, 2, 3, 4].map((failures) => retryDelayMs(policy, failures, none)), [1000, 2000, 3000, null]);
  t.equal(retryDelayMs(policy, 0, none), null, 'no failure, no retry');
  t.equal(retryDelayMs({ ...policy, retries: 0 }, 1, none), null, 'no retries at all');
  t.equal(retryDelayMs(policy, 1, () => 0.999999), 1100, 'jitter adds up to its share');
});

t.test('against a reference, on random policies and failures', async (t) => {
  forAll(500, (random) => {
    const drawn: RetryPolicy = { retries: integerBetween(random, 0, 12), baseDelayMs: integerBetween(random, 1, 5000), maxDelayMs: integerBetween(random, 1, 600_000), jitter: random() };
    const failures = integerBetween(random, -1, 15);
    const noise = random();
    let expected: number | null = null;
    if (failures >= 1 && failures <= drawn.retries) {
      let wait = drawn.baseDelayMs;
      for (let i = 1; i < failures; i += 1) wait *= 2;
      expected = Math.round(Math.min(wait, drawn.maxDelayMs) * (1 + drawn.jitter * noise));
    }
    const actual = retryDelayMs(drawn, failures, () => noise);
    if (actual !== expected) throw new Error(`${JSON.stringify(drawn)} after ${failures}: ${actual}, expected ${expected}`);
  });
  t.pass('500 random cases agree');
});
