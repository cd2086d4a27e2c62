import type { KeyAnnouncer } from '@comps/shared/internal/accounts/key-announcements';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { JobsGateway } from '../jobs/jobs-gateway.js';
import type { AuthThrottle } from '../sessions/auth-throttle.js';
import type { SessionLifetimes } from '../sessions/session-service.js';
import type { AssetStore } from './static-assets.js';
import type { AccountsDb } from '../db/database.js';

/** What the dashboard's routes are given (made once by main). */
export interface WebDeps {
  db: AccountsDb;
  /** Tells every api of keys made and revoked. */
  keys: KeyAnnouncer;
  logger: Logger;
  assets: AssetStore;
  throttle: AuthThrottle;
  jobs: JobsGateway;
  signUpOpen: boolean;
  sessions: SessionLifetimes;
  now: () => Date;
}
