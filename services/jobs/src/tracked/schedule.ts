import { SCHEDULE_PERIOD_MS, TRACKED_SEARCH_LIMITS, type Schedule } from '@comps/shared/contract/tracked-search';

/**
 * When a tracked search runs next: one period of its schedule on, plus up to 10 % of it at random,
 * so that the tracked searches made at the same moment (or all due after an outage) spread out
 * rather than all hitting the marketplace at each period's start.
 */
export function nextRunAfter(schedule: Schedule, from: Date, random: () => number): Date {
  const period = SCHEDULE_PERIOD_MS[schedule];
  return new Date(from.getTime() + period + Math.floor(random() * period * TRACKED_SEARCH_LIMITS.jitter));
}
