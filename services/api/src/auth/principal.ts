import type { AccountsClient } from '../accounts/accounts-client.js';

/** The caller behind an API key, as accounts reports it. */
export type Principal = NonNullable<Awaited<ReturnType<AccountsClient['apiKeys']['authenticate']['query']>>>;
export type QuotaSnapshot = Principal['quota'];
