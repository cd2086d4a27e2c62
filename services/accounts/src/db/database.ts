import type { ColumnType, Generated, Insertable, Kysely, Transaction } from 'kysely';

/**
 * Kysely's view of the schema. Names are camelCase here and snake_case in MySQL
 * (the CamelCasePlugin translates); migrations spell the snake_case names themselves.
 */

type CreatedAt = ColumnType<Date, Date | undefined, never>;

export interface PlansTable {
  id: string;
  name: string;
  monthlyQuota: number;
  rateLimitRequests: number;
  rateLimitWindowSeconds: number;
  concurrency: number;
  activeJobs: number;
  trackedSearches: number;
  webhookEndpoints: number;
  createdAt: CreatedAt;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  planId: string;
  monthlyQuotaOverride: number | null;
  rateLimitOverride: number | null;
  concurrencyOverride: number | null;
  trackedSearchesOverride: number | null;
  webhookEndpointsOverride: number | null;
  createdAt: CreatedAt;
}

export interface UsersTable {
  id: string;
  workspaceId: string;
  email: string;
  passwordHash: string | null;
  createdAt: CreatedAt;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the session id; the id itself is only in the browser's cookie. */
  idHash: string;
  userId: string;
  createdAt: CreatedAt;
  /** The earlier of the idle expiry (moved on by use) and the absolute one. */
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

export interface PasswordTokensTable {
  /** SHA-256 (hex) of a set-password link's token. */
  tokenHash: string;
  userId: string;
  createdAt: CreatedAt;
  expiresAt: Date;
}

export interface ApiKeysTable {
  id: string;
  workspaceId: string;
  keyHash: string;
  prefix: string;
  lastFour: string;
  name: string | null;
  createdAt: CreatedAt;
  revokedAt: Date | null;
}

export interface UsageCountersTable {
  workspaceId: string;
  periodStart: string;
  used: Generated<number>;
  reserved: Generated<number>;
}

export type ReservationState = 'reserved' | 'charged' | 'released';

export interface UsageReservationsTable {
  requestId: string;
  workspaceId: string;
  periodStart: string;
  state: ReservationState;
  createdAt: CreatedAt;
  expiresAt: Date;
  settledAt: Date | null;
  /** The allowance the charge was taken from; null when the request reserved its own unit. */
  allowanceId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** `held` until its lease runs out and the sweep frees its unused units (`expired`). */
export type AllowanceState = 'held' | 'expired';

/** Units a workspace's metering leased in a block (see the migration that creates the table). */
export interface QuotaAllowancesTable {
  id: string;
  workspaceId: string;
  periodStart: string;
  units: number;
  charged: Generated<number>;
  returned: Generated<number>;
  state: AllowanceState;
  createdAt: CreatedAt;
  expiresAt: Date;
}

export interface RequestHistoryTable {
  requestId: string;
  workspaceId: string;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
  createdAt: Date;
  method: string;
  path: string;
  status: number;
  code: string | null;
  charged: number;
  durationMs: number;
  marketSite: string | null;
  hasKeyword: number;
  resultCount: number | null;
  jobId: string | null;
}

/** A webhook endpoint of a workspace; its secrets are sealed (webhook-secret-box.ts), never stored in clear. */
export interface WebhookEndpointsTable {
  id: string;
  workspaceId: string;
  url: string;
  /** The subscribed event types, comma-separated, in the contract's order. */
  events: string;
  description: string | null;
  status: 'enabled' | 'disabled';
  disabledReason: 'gone' | 'failing' | 'manual' | null;
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failingSince: Date | null;
  /** The current secret, sealed: `v1:<iv>:<tag>:<ciphertext>`, bound to the endpoint's id. */
  secret: string;
  /** During a rotation: the previous secret, sealed the same way, which signs too until its expiry. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AccountsDatabase {
  plans: PlansTable;
  workspaces: WorkspacesTable;
  users: UsersTable;
  sessions: SessionsTable;
  passwordTokens: PasswordTokensTable;
  apiKeys: ApiKeysTable;
  usageCounters: UsageCountersTable;
  usageReservations: UsageReservationsTable;
  quotaAllowances: QuotaAllowancesTable;
  requestHistory: RequestHistoryTable;
  webhookEndpoints: WebhookEndpointsTable;
}

export type NewRequestHistoryRow = Insertable<RequestHistoryTable>;

/** Accounts' tables through Kysely (createDb<AccountsDatabase>). */
export type AccountsDb = Kysely<AccountsDatabase>;
/** The pool or a transaction: repositories take whichever their caller holds. */
export type AccountsExecutor = AccountsDb | Transaction<AccountsDatabase>;
