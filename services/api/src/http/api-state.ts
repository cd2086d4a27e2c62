import type { BaseState } from '@comps/shared/http/app-state';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { Principal, QuotaSnapshot } from '../auth/principal.js';

/** What the api's middleware and routes keep on `ctx.state`. */
export interface ApiState extends BaseState {
  principal?: Principal;
  keyHash?: string;
  /** The freshest quota figures, for the `X-Quota-*` headers. */
  quota?: QuotaSnapshot;
  /** Facts a route reports for the request's history entry. */
  history?: {
    charged?: boolean;
    marketSite?: MarketSite | null;
    hasKeyword?: boolean;
    resultCount?: number | null;
    jobId?: string | null;
  };
}
