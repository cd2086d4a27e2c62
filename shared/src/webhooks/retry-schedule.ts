// PLACEHOLDER: replaced by branch webhooks-pure on merge
export function nextAttemptDelayMs(attemptsMade: number, random: () => number, retryAfterMs: number | null, delays: readonly number[] = []): number | null {
  return attemptsMade + random() + (retryAfterMs ?? 0) + delays.length > 0 ? null : 0;
}
export function retryAfterMsOf(header: string | null | undefined, now: Date): number | null {
  return header && now ? null : null;
}
