import { randomBytes } from 'node:crypto';
import type { HistoryRecord } from '../internal/accounts/history-record.js';
import type { QuotaSnapshot } from '../internal/accounts/quota.js';
import type { Capabilities } from '../contract/capabilities.js';
import type { ItemDetails } from '../contract/listing.js';
import type { MarketSite } from '../contract/market-sites.js';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/create-logger.js';
import { buildListingCollection } from '../market/build-collection.js';
import type { MarketClient } from '../market/market-client.js';
import { abortableSleep } from '../runtime/abortable-sleep.js';
import type { Admission, Permit } from './admission.js';
import { dataKindOf, hasSearchText, siteOf, type MarketCall, type MarketValue } from './market-call.js';
import type { QuotaLedger } from './quota-ledger.js';

export interface MeterDeps {
  market: MarketClient;
  admission: Admission;
  ledger: QuotaLedger;
  dataGate: Capabilities['dataGate'];
  enabledSites: readonly MarketSite[];
  /** How long a single request waits for shared capacity before it is refused. */
  capacityWaitMs: number;
  logger: Logger;
  clock?: () => number;
}

/** What the history entry of a call needs beyond what the call itself says. */
export interface HistoryContext {
  method: string;
  /** The route template (`/v1/item/{itemId}`), or the path the job or bulk search runs under. */
  path: string;
  jobId: string | null;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
}

export interface MeteredCall<C extends MarketCall> {
  workspace: { id: string; concurrency: number };
  /** The call's own request id: its reservation, its charge and its history entry go by it. */
  requestId: string;
  call: C;
  /** Abandons the call (the caller went away, or the service stops); nothing is charged then. */
  signal: AbortSignal;
  /**
   * Abandons the call only while it waits for admission (a job cancelled while its page waits its
   * turn); once admitted, the call runs to its end and is charged if it succeeds.
   */
  stopWaiting?: AbortSignal;
  /**
   * `brief`: a single API request; a workspace at its concurrency is refused at once, shared
   * capacity is waited for up to `capacityWaitMs`. `patient`: a job page or a bulk keyword; both are
   * waited for, as long as the signal allows.
   */
  patience: 'brief' | 'patient';
  /**
   * Asked once the answer is read, before it is charged: `false` means the answer is no longer
   * wanted (a job page fetched ahead of a page that ended the job), and everything taken is given
   * back uncharged. The permits are held while it decides.
   */
  confirm?: () => Promise<boolean>;
  /** Told once the call is admitted and its quota reserved (a job starts its next page then, so pages take quota in order). */
  onReserved?: () => void;
  history: HistoryContext;
}

export type MeterOutcome<V> =
  | {
      ok: true;
      value: V;
      quota: QuotaSnapshot;
      record: HistoryRecord;
      /**
       * The entry went with the charge (the settlement records it with the charge): nobody writes it
       * again. Otherwise the caller hands `record` to its history writer.
       */
      recorded: boolean;
    }
  | {
      ok: false;
      error: AppError;
      /** The quota figures when the ledger was asked (for the `X-Quota-*` headers). */
      quota: QuotaSnapshot | null;
      record: HistoryRecord;
      /**
       * The signal abandoned the call (the error is then the signal's reason, or a 499 for a caller
       * that left), or its answer was not confirmed; nothing was charged.
       */
      abandoned: boolean;
    };

/** Status recorded for a caller that went away before its answer (the convention of nginx and others). */
export const CALLER_LEFT_STATUS = 499;

/** The history entry of a call, from what it was and what came of it. */
export function historyRecordOf(
  input: Pick<MeteredCall<MarketCall>, 'requestId' | 'workspace' | 'call' | 'history'>,
  outcome: Pick<HistoryRecord, 'status' | 'code' | 'charged' | 'resultCount' | 'durationMs'>,
): HistoryRecord {
  return {
    requestId: input.requestId,
    workspaceId: input.workspace.id,
    apiKeyId: input.history.apiKeyId,
    apiKeyPrefix: input.history.apiKeyPrefix,
    method: input.history.method,
    path: input.history.path,
    jobId: input.history.jobId,
    marketSite: siteOf(input.call),
    hasKeyword: hasSearchText(input.call),
    ...outcome,
  };
}

const POLL_MS = 50;

/**
 * One metered marketplace call, the same for a search, a job page and a bulk keyword: the data
 * gate and the site, admission (the workspace's concurrency and the shared upstream capacity, one
 * Redis round trip), the quota reservation (one round trip to accounts), exactly one marketplace
 * call, then the charge (handed to the settlement outbox with the permits' release, one round trip)
 * or the release of everything taken. A failure at any step gives back what was taken before it.
 */
export class Meter {
  private readonly clock: () => number;

  constructor(private readonly deps: MeterDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  async run<C extends MarketCall>(input: MeteredCall<C>): Promise<MeterOutcome<MarketValue<C>>> {
    const started = this.clock();
    const record = (facts: Pick<HistoryRecord, 'status' | 'code' | 'charged' | 'resultCount'>): HistoryRecord =>
      historyRecordOf(input, { ...facts, durationMs: Math.max(0, Math.round(this.clock() - started)) });
    const fail = (error: AppError, quota: QuotaSnapshot | null, declined = false): MeterOutcome<MarketValue<C>> => {
      const abandoned = declined || input.signal.aborted || Boolean(input.stopWaiting?.aborted && quota === null);
      const left = input.signal.aborted && !(input.signal.reason instanceof AppError);
      return {
        ok: false,
        error: input.signal.aborted && input.signal.reason instanceof AppError ? input.signal.reason : error,
        quota,
        abandoned,
        record: record({ status: left ? CALLER_LEFT_STATUS : error.status, code: left ? null : error.code, charged: 0, resultCount: null }),
      };
    };

    const closed = this.refusalFor(input.call);
    if (closed) return fail(closed, null);

    // A permit of its own per run: two runs of one request id (a job page taken over) never share one.
    const admitted = await this.admit(input, `${input.requestId}:${randomBytes(4).toString('hex')}`);
    if (admitted instanceof AppError) return fail(admitted, null);

    let reservation: Awaited<ReturnType<QuotaLedger['reserve']>>;
    try {
      reservation = await this.deps.ledger.reserve(input.workspace.id, input.requestId);
    } catch (error) {
      // The reservation may have been made before the call failed (a timeout): release it too (a release
      // of none is nothing), so that it does not hold a unit until it expires.
      await this.giveBack(admitted, input.requestId);
      throw error;
    }
    const { limit, used, remaining } = reservation;
    if (!reservation.ok) {
      await this.giveBack(admitted, null);
      // Units held by requests still in flight are not available either: nothing remains to start.
      return fail(new AppError('quota_exhausted', `The monthly quota of ${limit} requests is used up`), { limit, used, remaining: 0 });
    }
    input.onReserved?.();

    let value: MarketValue<C>;
    try {
      value = await this.fetch(input);
      // A caller that left while the page was read is not charged for an answer it will never get.
      input.signal.throwIfAborted();
    } catch (error) {
      await this.giveBack(admitted, input.requestId);
      // The unit is free again (now, or when the reservation expires): the figures say so.
      const quota = { limit, used, remaining: Math.min(limit - used, remaining + 1) };
      if (error instanceof AppError) return fail(error, quota);
      if (input.signal.aborted) return fail(new AppError('service_unavailable', 'The call was abandoned'), quota);
      throw error;
    }

    if (input.confirm && !(await this.confirmed(input.confirm, input.signal))) {
      await this.giveBack(admitted, input.requestId);
      return fail(new AppError('service_unavailable', 'The answer was not needed after all'), { limit, used, remaining: Math.min(limit - used, remaining + 1) }, true);
    }

    const resultCount = value && 'items' in value ? value.items.length : 1;
    try {
      const charged = record({ status: 200, code: null, charged: 1, resultCount });
      await this.deps.admission.complete(admitted, { requestId: input.requestId, history: charged });
      return { ok: true, value, quota: { limit, used, remaining }, record: charged, recorded: true };
    } catch (error) {
      // Without Redis the charge is settled here: an answered success is never left unsettled.
      this.deps.logger.warn({ err: String(error) }, 'settlement outbox unavailable; settling directly');
    }
    try {
      const settled = await this.deps.ledger.settle(input.requestId);
      return {
        ok: true,
        value,
        quota: { limit: settled.limit, used: settled.used, remaining: settled.remaining },
        record: record({ status: 200, code: null, charged: settled.charged ? 1 : 0, resultCount }),
        recorded: false,
      };
    } catch (error) {
      // The answer is ready: it is given. Its charge is in the outbox if the handover reached Redis,
      // else its reservation expires unsettled (a success not charged, never a failure charged). Its
      // entry says not charged: should the outbox settle it after all, its entry (charged) wins.
      this.deps.logger.error({ err: String(error), requestId: input.requestId }, 'charge neither handed over nor settled; the reservation will expire');
      return { ok: true, value, quota: { limit, used, remaining }, record: record({ status: 200, code: null, charged: 0, resultCount }), recorded: false };
    }
  }

  /**
   * Whether the data gate and the site are open for the call: checked before anything is taken, and
   * by routes before they accept work for later (a job, a bulk search), so that a closed gate or a
   * site not enabled is one clear answer rather than a failure per page or keyword.
   */
  refusalFor(call: MarketCall): AppError | null {
    const gate = dataKindOf(call);
    if (this.deps.dataGate[gate] === 'closed') {
      return new AppError('data_gate_closed', `The operator has closed the data gate for ${gate} data`, { retryAfter: 60 });
    }
    const site = siteOf(call);
    if (!this.deps.enabledSites.includes(site)) {
      return new AppError('site_not_enabled', `${site} is not enabled on this service (see GET /v1/capabilities)`);
    }
    return null;
  }

  /** Admission, waiting as the call's patience allows; a refusal is the AppError to answer with. */
  private async admit(input: MeteredCall<MarketCall>, holder: string): Promise<Permit | AppError> {
    const capacityDeadline = this.clock() + this.deps.capacityWaitMs;
    const waitEnds = input.stopWaiting ? AbortSignal.any([input.signal, input.stopWaiting]) : input.signal;
    for (;;) {
      if (waitEnds.aborted) return new AppError('service_unavailable', 'The call was abandoned before it started');
      const decision = await this.deps.admission.admit(input.workspace.id, holder, input.workspace.concurrency);
      if (decision.admitted) return decision.permit;
      if (input.patience === 'brief') {
        if (decision.reason === 'concurrency') {
          return new AppError('concurrency_limited', `The workspace already has its maximum of ${input.workspace.concurrency} requests in flight`, { retryAfter: 1 });
        }
        if (this.clock() >= capacityDeadline) {
          return new AppError('upstream_rate_limited', 'Upstream capacity is exhausted; retry shortly', { retryAfter: 1 });
        }
      }
      // Jitter keeps waiters of many processes from asking in lockstep.
      const wait = Math.min(decision.retryAfterMs, POLL_MS) + Math.random() * POLL_MS;
      await abortableSleep(input.patience === 'brief' ? Math.min(wait, Math.max(1, capacityDeadline - this.clock())) : wait, waitEnds);
    }
  }

  private async fetch<C extends MarketCall>(input: MeteredCall<C>): Promise<MarketValue<C>> {
    const { call, signal, requestId } = input;
    if (call.kind === 'item') {
      const fetched = await this.deps.market.item(call.itemId, call.marketSite, signal);
      const details: ItemDetails = {
        ...fetched.result,
        marketSite: call.marketSite,
        source: { marketSite: call.marketSite, fetchedAt: fetched.fetchedAt.toISOString(), upstreamMs: fetched.upstreamMs },
        requestId,
      };
      return details as MarketValue<C>;
    }
    const fetched = await this.deps.market.search(call.query, signal);
    const source = { marketSite: call.query.marketSite, fetchedAt: fetched.fetchedAt.toISOString(), upstreamMs: fetched.upstreamMs };
    return buildListingCollection(fetched.result, call.query, source, requestId) as MarketValue<C>;
  }

  /** Gives back the permits and, when one was taken, the reservation; failures here only delay what expiry does anyway. */
  /** Whether the caller still wants the answer: a caller that stops (its signal) or cannot say is taken as no. */
  private async confirmed(confirm: () => Promise<boolean>, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    let stop!: () => void;
    const stopped = new Promise<boolean>((resolve) => {
      stop = () => resolve(false);
      signal.addEventListener('abort', stop, { once: true });
    });
    try {
      return await Promise.race([confirm(), stopped]);
    } catch (error) {
      this.deps.logger.warn({ err: String(error) }, 'confirming an answer failed; it is given back uncharged');
      return false;
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  private async giveBack(permit: Permit, reservedRequestId: string | null): Promise<void> {
    await Promise.all([
      this.deps.admission.complete(permit, null).catch((error: unknown) =>
        this.deps.logger.warn({ err: String(error) }, 'permit release failed; it lapses with its lease'),
      ),
      reservedRequestId
        ? this.deps.ledger.release(reservedRequestId).catch((error: unknown) =>
            this.deps.logger.warn({ err: String(error) }, 'quota release failed; the reservation will expire'),
          )
        : undefined,
    ]);
  }
}
