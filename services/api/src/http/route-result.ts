import type { IncomingHttpHeaders } from 'node:http';
import { type HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import { type Principal } from '@comps/shared/internal/accounts/principal';
import { type QuotaSnapshot } from '@comps/shared/internal/accounts/quota';
import type { Readable } from 'node:stream';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { AppError } from '@comps/shared/errors/app-error';

/** What an authenticated route gets: the caller and the request, never Koa's context. */
export interface ApiRequest {
  requestId: string;
  principal: Principal;
  query: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
  /** Each header with all the values sent (a repeated header is not merged). */
  headers: Record<string, string[] | undefined>;
  /** The parsed JSON body, for routes that take one (undefined otherwise). */
  body: unknown;
  /** Aborts when the caller goes away, or when the service stops before the request could finish. */
  signal: AbortSignal;
}

/** What the request was about, for its history entry, known even when it fails. */
export interface RequestFacts {
  marketSite: MarketSite | null;
  hasKeyword: boolean;
}

/** What happened: the answer, and what history and the headers need of it. */
export interface RouteResult {
  status: number;
  /** A JSON value, or JSON already serialized (an idempotent replay sends the same bytes again), or a stream of another type. */
  body: unknown;
  /** For a streamed body: its media type (`text/csv; charset=utf-8`, `text/event-stream`). */
  stream?: { contentType: string; body: Readable };
  headers?: Record<string, string>;
  /** The freshest quota figures, for `X-Quota-*`. */
  quota?: QuotaSnapshot | null;
  /** The request's history entry when the route made it (a metered call); else one is made from the answer. */
  record?: HistoryRecord;
  /** `record` was written already, with the request's charge: it is not written again. */
  recorded?: boolean;
  /** For an entry made from the answer. */
  resultCount?: number | null;
  /** The job the request was about, for its history entry. */
  jobId?: string;
  /** For a stream of several calls (a bulk search): their history entries, as each finishes; no entry is made for the request itself. */
  laterRecords?: AsyncIterable<HistoryRecord>;
  /** The error the answer carries, when it is one. */
  error?: AppError;
}

export type { IncomingHttpHeaders };
