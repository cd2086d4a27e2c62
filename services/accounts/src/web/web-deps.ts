import type { KeyAnnouncer } from '@comps/shared/internal/accounts/key-announcements';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { JobsGateway } from '../jobs/jobs-gateway.js';
import type { AuthThrottle } from '../sessions/auth-throttle.js';
import type { SessionLifetimes } from '../sessions/session-service.js';
import type { AssetStore } from './static-assets.js';
import type { AccountsDb } from '../db/database.js';
import type { WebhookContext } from '../webhooks/webhook-context.js';

/** What the dashboard's routes are given (made once by main). */
export interface WebDeps {
  db: AccountsDb;
  /** Tells every api of keys made and revoked. */
  keys: KeyAnnouncer;
  logger: Logger;
  assets: AssetStore;
  throttle: AuthThrottle;
  jobs: JobsGateway;
  /** The workspace's webhook endpoints and their sealed secrets (accounts' own). */
  webhooks: WebhookContext;
  signUpOpen: boolean;
  sessions: SessionLifetimes;
  now: () => Date;
}
