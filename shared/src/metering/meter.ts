import { randomBytes } from 'node:crypto';
import type { Capabilities } from '../contract/capabilities.js';
import type { MarketSite } from '../contract/market-sites.js';
import { AppError } from '../errors/app-error.js';
import type { HistoryRecord, HistorySink } from '../internal/accounts/history-record.js';
import type { QuotaSnapshot } from '../internal/accounts/quota.js';
import type { Logger } from '../logging/create-logger.js';
import { dataKindOf, hasSearchText, siteOf, type MarketCall, type MarketValue } from '../market/market-call.js';
import type { MarketClient } from '../market/market-client.js';
import { abortableSleep } from '../runtime/abortable-sleep.js';
import type { WindowDecision } from '../redis/fixed-window-limiter.js';
import { LEASE_LANDING_WAIT_MS, UNITS_IN_TRANSIT_POLL_MS, UNITS_IN_TRANSIT_WAIT_MS, type Admission, type AdmissionDecision, type Permit, type RateCheck } from './admission.js';
import type { QuotaAllowances } from './quota-allowances.js';
import type { QuotaLedger } from './quota-ledger.js';

export interface MeterDeps {
  market: Pick<MarketClient, 'answer'>;
  admission: Admission;
  ledger: QuotaLedger;
  /** The workspaces' quota allowances; absent, every call reserves its own unit through accounts. */
  allowances?: QuotaAllowances;
  /** Where the entries of calls that are not charged go (a charged call's entry travels with its charge). */
  history: HistorySink;
  dataGate: Capabilities['dataGate'];
  enabledSites: readonly MarketSite[];
  /** How long a single request waits for shared capacity before it is refused. */
  capacityWaitMs: number;
  /** How long a call admitted while a block is on its way waits for it (tests give a longer one); `LEASE_LANDING_WAIT_MS` by default. */
  leaseLandingWaitMs?: number;
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

/** The answer of a call, as it is handed over: the value and the quota figures with its unit taken. */
export interface MeteredAnswer<V> {
  value: V;
  quota: QuotaSnapshot;
  /**
   * The allowance whose unit the call holds; null when it reserved its own. A deliverer that stores
   * the answer records it with the page, so that the charge can be settled from the store should the
   * process die before it hands the charge over.
   */
  allowanceId: string | null;
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
   * turn); once admitted, the call runs to its end.
   */
  stopWaiting?: AbortSignal;
  /**
   * `brief`: a single API request; a workspace at its concurrency is refused at once, shared
   * capacity is waited for up to `capacityWaitMs`. `patient`: a job page or a bulk keyword; both are
   * waited for, as long as the signal allows.
   */
  patience: 'brief' | 'patient';
  /**
   * Hands the answer over (writes the response, sends the event, stores the page) while the permits
   * and the reservation are still held, and says whether it was received whole. Only an answer
   * received whole is charged; one that was not (the caller hung up, the job no longer wants the
   * page) is given back and recorded as 499. An AppError instead says the answer is not given
   * because of that error (a sell-through whose other call failed): given back, recorded and
   * answered as that error. Waiting here is the deliverer's own business: it must end (it is not
   * cut short by `signal`). Once it said true, the outcome is `delivered`, whatever follows (a job
   * stores its next page as soon as this one is stored, before the charge is handed over).
   */
  deliver: (answer: MeteredAnswer<MarketValue<C>>) => Promise<boolean | AppError>;
  /**
   * Calls of the caller starting with this one, itself included (a bulk search's keywords, as many as
   * its concurrency runs at once): with no allowance to take from, the first of them asks for a block
   * and the others wait for it, rather than each reserving a unit through accounts.
   */
  together?: number;
  /** Told once the call is admitted and its quota reserved (a job starts its next page then, so pages take quota in order). */
  onReserved?: () => void;
  /** The call's admission, made ahead with its request's rate (Meter.admitRequest); the call asks for its own without it. */
  admitted?: AdmissionTicket | null;
  history: HistoryContext;
}

/**
 * How a call ended. Its history entry is written whatever the end (with the charge when charged,
 * through the history sink otherwise), so callers never handle one.
 */
export type MeterOutcome =
  /** Received whole; `charged` is false only when neither Redis nor accounts could take the charge (a success left free). */
  | { kind: 'delivered'; charged: boolean; quota: QuotaSnapshot }
  /** The answer was read but not received (the deliverer said so): nothing charged. */
  | { kind: 'undelivered'; quota: QuotaSnapshot }
  /** Refused or failed: the error to answer with; nothing charged. */
  | { kind: 'failed'; error: AppError; quota: QuotaSnapshot | null }
  /** The signal (or `stopWaiting`, before admission) ended the call before its answer; the error is why. */
  | { kind: 'abandoned'; error: AppError; quota: QuotaSnapshot | null };

/** Status recorded for an answer its caller did not receive (the convention of nginx and others). */
export const CALLER_LEFT_STATUS = 499;

const POLL_MS = 50;

/**
 * An admission made ahead of its call (Meter.admitRequest), for the call to take once; whoever made
 * it releases it at the end, which gives it back if no call took it (a request refused for its input).
 */
export class AdmissionTicket {
  constructor(
    private permit: Permit | null,
    private readonly giveBack: (permit: Permit) => Promise<void>,
  ) {}

  take(): Permit | null {
    const permit = this.permit;
    this.permit = null;
    return permit;
  }

  async release(): Promise<void> {
    const permit = this.take();
    if (permit) await this.giveBack(permit);
  }
}

/** A call that never reached the marketplace, for the history entry of a refusal made around the meter. */
export type RefusedCall = Pick<MeteredCall<MarketCall>, 'requestId' | 'workspace' | 'call' | 'history'>;

/**
 * One metered marketplace call, the same for a search, a job page and a bulk keyword: the data
 * gate and the site, admission (the workspace's concurrency and the shared upstream capacity, and a
 * unit of the workspace's quota allowance: one Redis round trip), the quota reservation when no
 * allowance unit was taken (one round trip to accounts), exactly one marketplace call, the delivery
 * of its answer, then the charge (handed to the settlement outbox with the permits' release, one
 * round trip) or the release of everything taken. A failure at any step gives back what was taken
 * before it. Every call leaves one history entry.
 */
export class Meter {
  private readonly clock: () => number;

  constructor(private readonly deps: MeterDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  async run<C extends MarketCall>(input: MeteredCall<C>): Promise<MeterOutcome> {
    const started = this.clock();
    const entry = (facts: Pick<HistoryRecord, 'status' | 'code' | 'charged' | 'resultCount'>): HistoryRecord =>
      historyRecordOf(input, { ...facts, durationMs: Math.max(0, Math.round(this.clock() - started)) });
    const fail = (error: AppError, quota: QuotaSnapshot | null): MeterOutcome => {
      const stopped = input.signal.aborted || Boolean(input.stopWaiting?.aborted && quota === null);
      const reason = input.signal.aborted && input.signal.reason instanceof AppError ? input.signal.reason : error;
      const callerLeft = input.signal.aborted && !(input.signal.reason instanceof AppError);
      this.deps.history.add(entry({ status: callerLeft ? CALLER_LEFT_STATUS : reason.status, code: callerLeft ? null : reason.code, charged: 0, resultCount: null }));
      return stopped ? { kind: 'abandoned', error: reason, quota } : { kind: 'failed', error: reason, quota };
    };

    const closed = this.refusalFor(input.call);
    if (closed) {
      await input.admitted?.release().catch((error: unknown) => this.deps.logger.warn({ err: String(error) }, 'permit release failed; it lapses with its lease'));
      return fail(closed, null);
    }

    let admitted: Permit | AppError;
    const early = input.admitted?.take();
    if (early) admitted = early;
    else {
      try {
        admitted = await this.admit(input, holderOf(input.requestId));
      } catch (error) {
        return fail(this.unexpected(error), null);
      }
    }
    if (admitted instanceof AppError) return fail(admitted, null);
    const permit = admitted;

    const held = await this.quotaFor(permit, input);
    if (held instanceof AppError) return fail(held, null);
    if ('refused' in held) {
      await this.giveBack(permit, null, 'uncalled');
      // Units held by requests still in flight are not available either: nothing remains to start.
      return fail(new AppError('quota_exhausted', `The monthly quota of ${held.refused.limit} requests is used up`), held.refused);
    }
    const { quota } = held;
    input.onReserved?.();
    // What the call holds: its own reservation (released by request id), or an allowance unit (given back with the permit).
    const reserved = permit.allowance ? null : input.requestId;
    // Once given back, the unit is free again (now, or when the reservation expires): the figures say so.
    const quotaGivenBack = { limit: quota.limit, used: quota.used, remaining: Math.min(quota.limit - quota.used, quota.remaining + 1) };

    let value: MarketValue<C>;
    try {
      value = await this.deps.market.answer(input.call, input.requestId, input.signal);
      // A caller that left while the page was read is not charged for an answer it will never get.
      input.signal.throwIfAborted();
    } catch (error) {
      await this.giveBack(permit, reserved);
      if (error instanceof AppError) return fail(error, quotaGivenBack);
      if (input.signal.aborted) return fail(new AppError('service_unavailable', 'The call was abandoned'), quotaGivenBack);
      return fail(this.unexpected(error), quotaGivenBack);
    }
    const resultCount = 'items' in value ? value.items.length : 1;

    let delivered: boolean | AppError;
    try {
      delivered = await input.deliver({ value, quota, allowanceId: permit.allowance?.allowanceId ?? null });
    } catch (error) {
      // Handing the answer over failed (a page that could not be stored): nothing charged, the caller decides what next.
      await this.giveBack(permit, reserved);
      this.deps.history.add(entry({ status: 500, code: 'internal_error', charged: 0, resultCount }));
      throw error;
    }
    if (delivered instanceof AppError) {
      await this.giveBack(permit, reserved);
      this.deps.history.add(entry({ status: delivered.status, code: delivered.code, charged: 0, resultCount }));
      return { kind: 'failed', error: delivered, quota: quotaGivenBack };
    }
    if (!delivered) {
      await this.giveBack(permit, reserved);
      this.deps.history.add(entry({ status: CALLER_LEFT_STATUS, code: null, charged: 0, resultCount }));
      return { kind: 'undelivered', quota: quotaGivenBack };
    }

    const charged = entry({ status: 200, code: null, charged: 1, resultCount });
    try {
      await this.deps.admission.complete(permit, { requestId: input.requestId, history: charged });
      return { kind: 'delivered', charged: true, quota };
    } catch (error) {
      // Without Redis the charge is settled here: a delivered success is never left unsettled.
      this.deps.logger.warn({ err: String(error) }, 'settlement outbox unavailable; settling directly');
    }
    try {
      if (permit.allowance) {
        const settled = await this.deps.ledger.settleBatch([], [charged], [{ requestId: input.requestId, allowanceId: permit.allowance.allowanceId }]);
        return { kind: 'delivered', charged: settled.charged === 1, quota };
      }
      const settled = await this.deps.ledger.settle(input.requestId);
      this.deps.history.add({ ...charged, charged: settled.charged ? 1 : 0 });
      return { kind: 'delivered', charged: settled.charged, quota: { limit: settled.limit, used: settled.used, remaining: settled.remaining } };
    } catch (error) {
      // The answer was received: its charge is in the outbox if the handover reached Redis, else its
      // reservation (or allowance unit) expires unsettled (a success not charged, never a failure
      // charged). Its entry says not charged: should the outbox settle it after all, its entry (charged) wins.
      this.deps.logger.error({ err: String(error), requestId: input.requestId }, 'charge neither handed over nor settled; the reservation will expire');
      this.deps.history.add({ ...charged, charged: 0 });
      return { kind: 'delivered', charged: false, quota };
    }
  }

  /**
   * The call's unit of quota: the allowance unit its admission took, else a reservation of its own
   * through accounts. A call admitted while a block is on its way into the allowance (a lease in
   * flight) waits for it first, `LEASE_LANDING_WAIT_MS` at most: a burst that finds no allowance (the first calls after an idle
   * moment, a bulk search's keywords) then costs accounts one lease, not a reservation a call, which
   * accounts makes one after another on the workspace's counter (a bulk search's last keywords left
   * 25–50 ms after its first). A reservation refused at the limit looks at the allowance again (a lease may
   * have landed since the admission) and, while units are on their way into or out of the
   * allowance, waits for them: a call is refused only when the quota is used up or held by calls in
   * flight. A failure of accounts is the AppError to answer with (the permit given back).
   */
  private async quotaFor(permit: Permit, input: MeteredCall<MarketCall>): Promise<{ quota: QuotaSnapshot } | { refused: QuotaSnapshot } | AppError> {
    const { allowances } = this.deps;
    if (permit.allowance) {
      allowances?.noteTake(input.workspace.id, permit.allowance.allowanceId);
      return { quota: permit.allowance.quota };
    }
    if (allowances && permit.unitsComing) {
      const coming = await this.unitOnItsWay(permit, input, null, this.deps.leaseLandingWaitMs ?? LEASE_LANDING_WAIT_MS);
      if (!('waited' in coming)) return coming;
      if (input.signal.aborted) {
        await this.giveBack(permit, null, 'uncalled');
        return new AppError('service_unavailable', 'The call was abandoned before it started');
      }
      // No unit came (the lease was refused or failed, the block went to other calls, or it did not land within the wait): a reservation of its own.
    }
    const own = await this.reserveOwn(permit, input);
    if (own instanceof AppError || !('refused' in own) || !allowances) return own;
    // Refused: a lease may have landed since the admission, or units may be on their way into or out
    // of the allowance. Only Redis is asked while they are; once they have gone back to accounts, one
    // more reservation finds them there.
    const coming = await this.unitOnItsWay(permit, input, input.requestId, UNITS_IN_TRANSIT_WAIT_MS);
    if (!('waited' in coming)) return coming;
    return coming.waited && !input.signal.aborted ? this.reserveOwn(permit, input) : own;
  }

  /**
   * A unit of the allowance for a call admitted without one, waiting while units are on their way
   * into or out of it (Redis alone is asked, and this process's own lease in flight awaited), at most
   * `waitMs`; `waited` says whether any were on their way when it stopped looking (none was, the
   * wait ended, or the caller left). A Redis failure is the AppError to answer with (the permit given
   * back, and the reservation `reserved` released).
   */
  private async unitOnItsWay(permit: Permit, input: MeteredCall<MarketCall>, reserved: string | null, waitMs: number): Promise<{ quota: QuotaSnapshot } | { waited: boolean } | AppError> {
    const allowances = this.deps.allowances!;
    const deadline = this.clock() + waitMs;
    for (let waited = false; ; waited = true) {
      let unit: Awaited<ReturnType<Admission['takeUnit']>>;
      try {
        unit = await this.deps.admission.takeUnit(permit);
      } catch (error) {
        // Redis failed: its error (service_unavailable), not a refusal for a quota that may be there.
        await this.giveBack(permit, reserved, 'uncalled');
        return this.unexpected(error);
      }
      if (typeof unit === 'object') {
        allowances.noteTake(input.workspace.id, unit.allowanceId);
        return { quota: unit.quota };
      }
      if (unit === 'none' || this.clock() >= deadline || input.signal.aborted) return { waited };
      // This process's own lease is looked at as soon as it lands; another process's, every poll.
      const poll = abortableSleep(UNITS_IN_TRANSIT_POLL_MS, input.signal).catch(() => undefined);
      const ownLease = allowances.leaseInFlight(input.workspace.id);
      await (ownLease ? Promise.race([ownLease, poll]) : poll);
    }
  }

  /** A reservation of the call's own through accounts: its figures, or the refusal's; a failure of accounts is the AppError to answer with (the permit given back). */
  private async reserveOwn(permit: Permit, input: MeteredCall<MarketCall>): Promise<{ quota: QuotaSnapshot } | { refused: QuotaSnapshot } | AppError> {
    let reservation: Awaited<ReturnType<QuotaLedger['reserve']>>;
    try {
      reservation = await this.deps.ledger.reserve(input.workspace.id, input.requestId);
    } catch (error) {
      // The reservation may have been made before the call failed (a timeout): release it too (a release
      // of none is nothing), so that it does not hold a unit until it expires.
      await this.giveBack(permit, input.requestId, 'uncalled');
      return this.unexpected(error);
    }
    const { limit, used, remaining } = reservation;
    return reservation.ok ? { quota: { limit, used, remaining } } : { refused: { limit, used, remaining: 0 } };
  }

  /**
   * The admission of an API request's first call, made in one Redis round trip with the request's
   * rate (which refuses first, admitting nothing). A call not admitted now (the workspace at its
   * concurrency, no shared capacity) gets no ticket and asks again when it runs, so that the
   * request's input is still checked before those refusals, as without this.
   */
  async admitRequest(input: { workspace: { id: string; concurrency: number }; requestId: string; rate: RateCheck }): Promise<{ rate: WindowDecision; ticket: AdmissionTicket | null }> {
    const decision = await this.deps.admission.admit(input.workspace.id, holderOf(input.requestId), input.workspace.concurrency, {
      rate: input.rate,
      allowance: Boolean(this.deps.allowances),
    });
    this.leaseIfDue(decision);
    if (!decision.admitted) return { rate: decision.rate!, ticket: null };
    return { rate: decision.rate!, ticket: new AdmissionTicket(decision.permit, (permit) => this.giveBack(permit, null, 'uncalled')) };
  }

  private leaseIfDue(decision: AdmissionDecision): void {
    if (decision.admitted && decision.leaseDue) this.deps.allowances?.lease(decision.leaseDue);
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

  /** The history entry of a call refused before it reached the meter (a bulk keyword over the rate, one a stopping service never ran). */
  recordRefusal(call: RefusedCall, error: AppError): void {
    this.deps.history.add(historyRecordOf(call, { status: error.status, code: error.code, charged: 0, resultCount: null, durationMs: 0 }));
  }

  /** A dependency's failure as the contract's error (an AppError already is one; anything else is logged and internal). */
  private unexpected(error: unknown): AppError {
    if (error instanceof AppError) return error;
    this.deps.logger.error({ err: error }, 'metered call failed unexpectedly');
    return new AppError('internal_error', 'Internal error', { cause: error });
  }

  /** Admission, waiting as the call's patience allows; a refusal is the AppError to answer with. */
  private async admit(input: MeteredCall<MarketCall>, holder: string): Promise<Permit | AppError> {
    const capacityDeadline = this.clock() + this.deps.capacityWaitMs;
    const waitEnds = input.stopWaiting ? AbortSignal.any([input.signal, input.stopWaiting]) : input.signal;
    for (;;) {
      if (waitEnds.aborted) return new AppError('service_unavailable', 'The call was abandoned before it started');
      const decision = await this.deps.admission.admit(input.workspace.id, holder, input.workspace.concurrency, { allowance: Boolean(this.deps.allowances), together: input.together ?? 1 });
      this.leaseIfDue(decision);
      if (decision.admitted) return decision.permit;
      if (input.patience === 'brief') {
        if (decision.reason === 'concurrency') {
          return new AppError('concurrency_limited', `The workspace already has its maximum of ${input.workspace.concurrency} requests in flight`, { retryAfter: 1 });
        }
        if (this.clock() >= capacityDeadline) {
          return new AppError('upstream_rate_limited', 'Upstream capacity is exhausted; retry shortly', { retryAfter: 1 });
        }
      }
      // Jitter keeps waiters of many processes from asking in lockstep (no rate is counted here: a refusal is the call's own).
      const retryAfterMs = decision.reason === 'rate' ? POLL_MS : decision.retryAfterMs;
      const wait = Math.min(retryAfterMs, POLL_MS) + Math.random() * POLL_MS;
      await abortableSleep(input.patience === 'brief' ? Math.min(wait, Math.max(1, capacityDeadline - this.clock())) : wait, waitEnds);
    }
  }

  /**
   * Gives back the permits and, when one was taken, the reservation; failures here only delay what
   * expiry does anyway. A call that never reached the marketplace (`uncalled`) also stops counting
   * in the calls per second toward it.
   */
  private async giveBack(permit: Permit, reservedRequestId: string | null, uncalled?: 'uncalled'): Promise<void> {
    await Promise.all([
      this.deps.admission.complete(permit, null, uncalled === 'uncalled').catch((error: unknown) =>
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

/** A permit's holder: the call's request id and a random part, so that two runs of one request id (a job page taken over) never share one. */
function holderOf(requestId: string): string {
  return `${requestId}:${randomBytes(4).toString('hex')}`;
}

/** The history entry of a call, from what it was and what came of it. */
function historyRecordOf(
  input: RefusedCall,
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
