import type { AppError } from '../errors/app-error.js';
import type { QuotaSnapshot } from '../internal/accounts/quota.js';
import type { MarketCall, MarketValue } from '../market/market-call.js';
import type { AdmissionTicket, HistoryContext, MeteredAnswer, MeteredCall, Meter } from './meter.js';

/** Metered calls whose answers are handed over as one (a search's one call, a sell-through's two). */
export interface CallsTogether<C extends MarketCall> {
  workspace: MeteredCall<C>['workspace'];
  /**
   * Each call under its own request id: its reservation, its charge and its history entry go by it;
   * `admitted`, an admission made ahead for it (Meter.admitRequest).
   */
  calls: Array<{ requestId: string; call: C; admitted?: AdmissionTicket | null }>;
  signal: AbortSignal;
  patience: MeteredCall<C>['patience'];
  history: HistoryContext;
  /**
   * Hands every call's answer over at once (in the order of `calls`), once all arrived, and says
   * whether it was received whole; called at most once, while every call's permits and reservation
   * are still held.
   */
  deliver: (answers: Array<MeteredAnswer<MarketValue<C>>>) => Promise<boolean>;
}

export type TogetherOutcome =
  /** A call was refused, failed or was abandoned before the answer was handed over: its error; nothing charged. */
  | { kind: 'failed'; error: AppError; quota: QuotaSnapshot | null }
  /** The answer was handed over (each call charged only if it was received whole): whether every call was charged for it. */
  | { kind: 'handed'; charged: boolean };

/**
 * Runs the calls at once, each through the meter: each call's answer waits (its permits and
 * reservation held) until every call has one, then `deliver` hands them over once, and each call is
 * charged only if that was received whole. A call that failed makes the whole fail with its error,
 * and the others are given back uncharged, that error in their history entries.
 */
export async function meterTogether<C extends MarketCall>(meter: Pick<Meter, 'run'>, input: CallsTogether<C>): Promise<TogetherOutcome> {
  const answers: Array<MeteredAnswer<MarketValue<C>>> = [];
  const arrived = input.calls.map(() => false);
  let waiting = input.calls.length;
  let failure: AppError | null = null;
  let allArrived!: (failure: AppError | null) => void;
  const together = new Promise<AppError | null>((resolve) => (allArrived = resolve));
  const arrive = (index: number, error?: AppError) => {
    if (arrived[index]) return;
    arrived[index] = true;
    failure ??= error ?? null;
    waiting -= 1;
    if (waiting === 0) allArrived(failure);
  };
  // Set once every answer arrived (the deliveries assign it; `as` keeps it from being narrowed to null).
  let handing = null as Promise<boolean> | null;
  const outcomes = await Promise.all(
    input.calls.map(async ({ requestId, call, admitted }, index) => {
      const outcome = await meter.run({
        workspace: input.workspace,
        requestId,
        admitted: admitted ?? null,
        call,
        signal: input.signal,
        patience: input.patience,
        history: input.history,
        deliver: async (answer) => {
          answers[index] = answer;
          arrive(index);
          const failed = await together;
          if (failed) return failed;
          handing ??= input.deliver(answers);
          return handing;
        },
      });
      if (outcome.kind === 'failed' || outcome.kind === 'abandoned') arrive(index, outcome.error);
      return outcome;
    }),
  );
  if (handing === null) {
    // Nothing was handed over: a call ended without an answer, and its error is the whole's.
    const ended = outcomes.find((outcome) => outcome.kind === 'failed' || outcome.kind === 'abandoned');
    if (!ended || (ended.kind !== 'failed' && ended.kind !== 'abandoned')) throw new Error('metered calls ended with neither an answer nor an error');
    return { kind: 'failed', error: failure ?? ended.error, quota: ended.quota };
  }
  await handing;
  return { kind: 'handed', charged: outcomes.every((outcome) => outcome.kind === 'delivered' && outcome.charged) };
}
