import { WEBHOOK_LIMITS } from '../contract/webhook.js';

/** A receiver's Retry-After is honoured up to this long; past it the schedule goes on as planned. */
const RETRY_AFTER_CAP_MS = 24 * 3_600_000;

/**
 * The wait before the next attempt of a delivery after `attemptsMade` attempts (1: only the first
 * was made): the schedule's delay plus up to 10 % jitter, so that endpoints that failed together are
 * not all retried in the same instant; or `retryAfterMs` (from `retryAfterMsOf`, on a 429 or 503)
 * when the receiver asked for longer. Null once the schedule is spent (8 attempts in all). `delays`
 * is the contract's schedule unless an operator (or a test) configured a shorter one.
 */
export function nextAttemptDelayMs(attemptsMade: number, random: () => number, retryAfterMs: number | null, delays: readonly number[] = WEBHOOK_LIMITS.retryDelaysMs): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError(`attemptsMade counts the attempts made (1 or more): ${attemptsMade}`);
  const delay = delays[attemptsMade - 1];
  if (delay === undefined) return null;
  const jittered = delay + Math.floor(random() * delay * WEBHOOK_LIMITS.jitter);
  return retryAfterMs !== null && retryAfterMs > jittered ? retryAfterMs : jittered;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = `(?<month>${MONTHS.join('|')})`;
const TIME = '(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2})';
// RFC 9110, 5.6.7: the preferred IMF-fixdate and the two obsolete forms a recipient must still read.
const HTTP_DATE_FORMS = [
  new RegExp(`^(?:mon|tue|wed|thu|fri|sat|sun), (?<day>\\d{2}) ${MONTH} (?<year>\\d{4}) ${TIME} gmt$`, 'i'),
  new RegExp(`^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday), (?<day>\\d{2})-${MONTH}-(?<year>\\d{2}) ${TIME} gmt$`, 'i'),
  new RegExp(`^(?:mon|tue|wed|thu|fri|sat|sun) ${MONTH} (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`, 'i'),
];

/** The instant of an HTTP-date in ms, or null: stricter than Date.parse, which reads almost anything (and asctime as local time). */
function httpDateMs(value: string, now: Date): number | null {
  const groups = HTTP_DATE_FORMS.map((form) => form.exec(value)?.groups).find((found) => found !== undefined);
  if (!groups) return null;
  let year = Number(groups.year);
  if (groups.year!.length === 2) {
    // The latest year with these two digits that is not more than 50 years ahead (RFC 9110).
    const currentYear = now.getUTCFullYear();
    year += currentYear - (currentYear % 100);
    if (year > currentYear + 50) year -= 100;
  }
  const month = MONTHS.indexOf(groups.month!.toLowerCase());
  const [day, hour, minute, second] = [groups.day, groups.hour, groups.minute, groups.second].map(Number) as [number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  // 60 is a leap second, which the grammar allows.
  if (day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60) return null;
  return Date.UTC(year, month, day, hour, minute, second);
}

/**
 * A `Retry-After` header (delay-seconds or an HTTP-date) as a wait in ms from `now`: at least 0 (a
 * date in the past means now), at most 24 hours; null when absent or unreadable.
 */
export function retryAfterMsOf(header: string | null | undefined, now: Date): number | null {
  const value = header?.trim();
  if (!value) return null;
  const waitMs = /^\d+$/.test(value) ? Number(value) * 1000 : (httpDateMs(value, now) ?? Number.NaN) - now.getTime();
  if (Number.isNaN(waitMs)) return null;
  return Math.min(Math.max(waitMs, 0), RETRY_AFTER_CAP_MS);
}
