import t from 'tap';
import { WEBHOOK_LIMITS } from '@comps/shared/contract/webhook';
import { nextAttemptDelayMs, retryAfterMsOf } from '@comps/shared/webhooks/retry-schedule';
import { forAll, integerBetween } from '../../helpers/property-test.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const none = () => 0;
const most = () => 0.999999;

t.test('the contract\'s schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then nothing (8 attempts in all)', async (t) => {
  t.strictSame([1, 2, 3, 4, 5, 6, 7, 8, 9].map((made) => nextAttemptDelayMs(made, none, null)), [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, null, null]);
  const total = [1, 2, 3, 4, 5, 6, 7].reduce((sum, made) => sum + nextAttemptDelayMs(made, none, null)!, 0);
  t.ok(total > 27 * HOUR && total < 29 * HOUR, `about 28 hours from the first attempt to the last (${total / HOUR} h)`);
});

t.test('jitter adds up to 10 % of the delay, never more, never less than the delay', async (t) => {
  t.equal(nextAttemptDelayMs(1, most, null), 5 * SECOND + 499, 'just under 10 %');
  t.equal(nextAttemptDelayMs(7, () => 0.5, null), 10 * HOUR + HOUR / 2);
  forAll(500, (random) => {
    const made = integerBetween(random, 1, 7);
    const delay = WEBHOOK_LIMITS.retryDelaysMs[made - 1]!;
    const draw = random();
    const actual = nextAttemptDelayMs(made, () => draw, null)!;
    if (actual !== delay + Math.floor(draw * delay * 0.1)) throw new Error(`after ${made} with ${draw}: ${actual}`);
    if (actual < delay || actual >= delay * 1.1) throw new Error(`after ${made}: ${actual} outside [${delay}, ${delay * 1.1})`);
  });
  t.pass('500 random draws within bounds');
});

t.test('a Retry-After longer than the jittered delay wins; a shorter one does not', async (t) => {
  t.equal(nextAttemptDelayMs(1, none, 60 * SECOND), 60 * SECOND, 'the receiver asked for a minute, not 5 s');
  t.equal(nextAttemptDelayMs(1, most, 5 * SECOND + 500), 5 * SECOND + 500, 'longer than the delay with its jitter');
  t.equal(nextAttemptDelayMs(1, most, 5 * SECOND + 499), 5 * SECOND + 499, 'equal: the same either way');
  t.equal(nextAttemptDelayMs(2, none, 60 * SECOND), 5 * MINUTE, 'shorter than the schedule: the schedule');
  t.equal(nextAttemptDelayMs(1, none, 0), 5 * SECOND, '"now" does not shorten the schedule');
  t.equal(nextAttemptDelayMs(8, none, HOUR), null, 'a spent schedule stays spent whatever the receiver asks');
});

t.test('attempts made is a count of 1 or more', async (t) => {
  for (const made of [0, -1, 1.5, Number.NaN]) t.throws(() => nextAttemptDelayMs(made, none, null), RangeError, String(made));
});

t.test('Retry-After as delay-seconds', async (t) => {
  const now = new Date('2026-11-20T12:00:00Z');
  t.equal(retryAfterMsOf('120', now), 120 * SECOND);
  t.equal(retryAfterMsOf(' 0 ', now), 0, 'surrounding spaces are fine');
  t.equal(retryAfterMsOf('86400', now), DAY, 'a day exactly');
  t.equal(retryAfterMsOf('86401', now), DAY, 'capped at a day');
  t.equal(retryAfterMsOf('99999999999999999999999', now), DAY, 'absurdly large: capped');
  for (const bad of ['-5', '1.5', '1e3', '+5', '0x10', '5 s', 'soon', '', '   ']) t.equal(retryAfterMsOf(bad, now), null, `unreadable: ${JSON.stringify(bad)}`);
  t.equal(retryAfterMsOf(null, now), null, 'absent (null)');
  t.equal(retryAfterMsOf(undefined, now), null, 'absent (undefined)');
});

t.test('Retry-After as an HTTP-date, in its three forms', async (t) => {
  const now = new Date('1994-11-06T08:49:00Z');
  t.equal(retryAfterMsOf('Sun, 06 Nov 1994 08:49:37 GMT', now), 37 * SECOND, 'IMF-fixdate');
  t.equal(retryAfterMsOf('Sunday, 06-Nov-94 08:49:37 GMT', now), 37 * SECOND, 'RFC 850');
  t.equal(retryAfterMsOf('Sun Nov  6 08:49:37 1994', now), 37 * SECOND, 'asctime, read as GMT whatever the local zone');
  t.equal(retryAfterMsOf('sun, 06 nov 1994 08:49:37 gmt', now), 37 * SECOND, 'case does not matter');
  t.equal(retryAfterMsOf('Sun, 06 Nov 1994 08:48:00 GMT', now), 0, 'in the past: now');
  t.equal(retryAfterMsOf('Mon, 07 Nov 1994 08:49:00 GMT', now), DAY, 'a day ahead exactly');
  t.equal(retryAfterMsOf('Thu, 01 Dec 1994 00:00:00 GMT', now), DAY, 'weeks ahead: capped at a day');
  t.equal(retryAfterMsOf('Sun, 06 Nov 1994 08:49:60 GMT', now), 60 * SECOND, 'a leap second');
  t.equal(retryAfterMsOf('Wed, 29 Feb 1995 00:00:00 GMT', new Date('1995-02-28T23:00:00Z')), null, 'no 29 February in 1995');
  t.equal(retryAfterMsOf('Thu, 29 Feb 1996 00:00:00 GMT', new Date('1996-02-28T23:00:00Z')), HOUR, 'but one in 1996');
  for (const bad of [
    'Sun, 31 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 24:00:00 GMT',
    'Sun, 06 Nov 1994 08:60:00 GMT',
    'Sun, 00 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 06 Nov 1994 08:49:37 +0000',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'Sun, 06 Foo 1994 08:49:37 GMT',
    '1994-11-06T08:49:37Z',
    'Sun Nov 6 08:49:37 1994',
    'tomorrow',
    'Sun, 06 Nov 1994',
  ]) t.equal(retryAfterMsOf(bad, now), null, `unreadable: ${bad}`);
});

t.test('RFC 850\'s two-digit year is the latest with those digits not more than 50 years ahead', async (t) => {
  const now = new Date('2026-11-20T12:00:00Z');
  t.equal(retryAfterMsOf('Friday, 20-Nov-26 13:00:00 GMT', now), HOUR, '26: this year');
  t.equal(retryAfterMsOf('Saturday, 20-Nov-27 12:00:00 GMT', now), DAY, '27: next year (capped)');
  t.equal(retryAfterMsOf('Thursday, 20-Nov-25 12:00:00 GMT', now), 0, '25: last year');
  t.equal(retryAfterMsOf('Monday, 20-Nov-76 12:00:00 GMT', now), DAY, '76: 2076, 50 years ahead');
  t.equal(retryAfterMsOf('Monday, 20-Nov-77 12:00:00 GMT', now), 0, '77: 1977, since 2077 is more than 50 years ahead');
});

t.test('an HTTP-date is read against the given now, to the millisecond', async (t) => {
  forAll(300, (random) => {
    const now = new Date(Date.UTC(2000, 0, 1) + integerBetween(random, 0, 40 * 365) * DAY + integerBetween(random, 0, DAY - 1));
    const offsetSeconds = integerBetween(random, -2 * 86_400, 2 * 86_400);
    const target = new Date(Math.floor(now.getTime() / 1000) * 1000 + offsetSeconds * 1000);
    const expected = Math.min(Math.max(target.getTime() - now.getTime(), 0), DAY);
    const actual = retryAfterMsOf(target.toUTCString(), now);
    if (actual !== expected) throw new Error(`${target.toUTCString()} at ${now.toISOString()}: ${actual}, expected ${expected}`);
  });
  t.pass('300 random dates (toUTCString writes IMF-fixdate)');
});
