import type { Router } from '@koa/router';
import { LIMITS } from '@comps/shared/contract/limits';
import { AppError } from '@comps/shared/errors/app-error';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { createApiKey, revokeKey } from '../../api-keys/api-key-service.js';
import { getOverview, listKeys } from '../../dashboard/dashboard-service.js';
import { listHistory } from '../../history/history-service.js';
import { csrfTokenFor } from '../../sessions/csrf.js';
import { clearCookie, NEW_KEY_COOKIE, NEW_KEY_COOKIE_PATH, readCookie, setCookie } from '../cookies.js';
import { formField, queryField } from '../forms.js';
import { openNewKey, sealNewKey } from '../new-key-flash.js';
import { frameOf, seeOther, sendPage, sessionOf } from '../respond.js';
import { keysPage, revokeConfirmPage } from '../views/keys-page.js';
import { overviewPage } from '../views/overview-page.js';
import { requestsPage } from '../views/requests-page.js';
import type { WebDeps } from '../web-deps.js';
import type { WebContext, WebState } from '../web-state.js';
import { webRouter } from '../web-router.js';

const KEY_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const HISTORY_PAGE_SIZE = LIMITS.historyPageSize.default;

function isCalendarDate(value: string): boolean {
  return DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

/** The overview, API keys and request history; all through the accounts service's own code, for the session's workspace only. */
export function dashboardRoutes(deps: WebDeps): Router<WebState> {
  const router = webRouter();

  router.get('/dashboard', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const [overview, keys] = await Promise.all([getOverview(deps.db, workspaceId, deps.now()), listKeys(deps.db, workspaceId)]);
    sendPage(ctx, overviewPage(frameOf(ctx, deps), { overview, baseUrl: `${ctx.protocol}://${ctx.host}`, hasKeys: keys.some((key) => !key.revokedAt) }));
  });

  router.get('/dashboard/keys', async (ctx) => {
    const session = sessionOf(ctx);
    const keys = await listKeys(deps.db, session.workspaceId);
    const sealed = readCookie(ctx, NEW_KEY_COOKIE);
    let created: { key: string; name: string | null } | null = null;
    if (sealed) {
      // Read once: the next load of this page shows the key's last four characters only.
      clearCookie(ctx, NEW_KEY_COOKIE, NEW_KEY_COOKIE_PATH);
      const flash = openNewKey(session.sessionId, sealed);
      const listed = flash && keys.find((key) => key.id === flash.apiKeyId && !key.revokedAt);
      if (flash && listed) created = { key: flash.key, name: listed.name };
    }
    const revokedId = queryField(ctx, 'revoked');
    const revoked = KEY_ID.test(revokedId) ? (keys.find((key) => key.id === revokedId && key.revokedAt) ?? null) : null;
    sendPage(ctx, keysPage(frameOf(ctx, deps), { csrfToken: csrfTokenFor(session.sessionId), keys, created, revoked }));
  });

  router.post('/dashboard/keys', async (ctx) => {
    const session = sessionOf(ctx);
    const name = formField(ctx, 'name').trim().replace(/\s+/g, ' ');
    if ([...name].length > 100) {
      const keys = await listKeys(deps.db, session.workspaceId);
      const error = 'Choose a name of at most 100 characters.';
      return sendPage(ctx, keysPage(frameOf(ctx, deps), { csrfToken: csrfTokenFor(session.sessionId), keys, error, name }), 400);
    }
    const issued = await createApiKey(deps.db, deps.keys, session.workspaceId, name || null);
    deps.logger.info({ workspaceId: session.workspaceId, apiKeyId: issued.apiKeyId }, 'API key created');
    setCookie(ctx, NEW_KEY_COOKIE, sealNewKey(session.sessionId, { apiKeyId: issued.apiKeyId, key: issued.key }), {
      path: NEW_KEY_COOKIE_PATH,
      sameSite: 'strict',
      maxAgeMs: 5 * 60_000,
    });
    seeOther(ctx, '/dashboard/keys');
  });

  /** The session's workspace's active key of that id; another workspace's is not found, as one that does not exist. */
  async function ownActiveKey(ctx: WebContext) {
    const keyId = String(ctx.params.keyId);
    const key = KEY_ID.test(keyId) ? (await listKeys(deps.db, sessionOf(ctx).workspaceId)).find((candidate) => candidate.id === keyId && !candidate.revokedAt) : undefined;
    if (!key) throw new AppError('not_found', 'No such key');
    return key;
  }

  router.get('/dashboard/keys/:keyId/revoke', async (ctx) => {
    const key = await ownActiveKey(ctx);
    sendPage(ctx, revokeConfirmPage(frameOf(ctx, deps), { csrfToken: csrfTokenFor(sessionOf(ctx).sessionId), key }));
  });

  router.post('/dashboard/keys/:keyId/revoke', async (ctx) => {
    const session = sessionOf(ctx);
    const keyId = String(ctx.params.keyId);
    if (!KEY_ID.test(keyId)) throw new AppError('not_found', 'No such key');
    // Scoped to the session's workspace whatever the form says: another workspace's key is not_found.
    const revoked = await revokeKey(deps.db, deps.keys, keyId, deps.now(), session.workspaceId);
    deps.logger.info({ workspaceId: session.workspaceId, apiKeyId: revoked.apiKeyId }, 'API key revoked');
    seeOther(ctx, `/dashboard/keys?revoked=${encodeURIComponent(revoked.apiKeyId)}`);
  });

  router.get('/dashboard/requests', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const from = queryField(ctx, 'from');
    const to = queryField(ctx, 'to');
    const before = queryField(ctx, 'before');
    const frame = frameOf(ctx, deps);
    const dateError =
      (from && !isCalendarDate(from)) || (to && !isCalendarDate(to))
        ? 'Enter dates as YYYY-MM-DD.'
        : from && to && from > to
          ? 'The start date must not be after the end date.'
          : null;
    if (dateError) return sendPage(ctx, requestsPage(frame, { entries: [], from, to, olderQuery: null, paged: false, error: dateError }), 400);
    // A broken page link is no reason to show nothing: the newest page, with the filter, and a word why.
    const beforeRequestId = REQUEST_ID_PATTERN.test(before) ? before : undefined;
    const page = await listHistory(
      deps.db,
      { workspaceId, limit: HISTORY_PAGE_SIZE, ...(beforeRequestId ? { beforeRequestId } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) },
      deps.now(),
    );
    const olderQuery = page.continueBefore
      ? new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}), before: page.continueBefore }).toString()
      : null;
    const error = before && !beforeRequestId ? 'That page link is not valid; these are the newest requests.' : null;
    sendPage(ctx, requestsPage(frame, { entries: page.entries, from, to, olderQuery, paged: Boolean(beforeRequestId), error }));
  });

  return router;
}
