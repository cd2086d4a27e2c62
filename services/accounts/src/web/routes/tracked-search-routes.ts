import type { Router } from '@koa/router';
import { AppError } from '@comps/shared/errors/app-error';
import { archiveStatsQuerySchema, salesQueryObject, TRACKED_SEARCH_ID_PATTERN } from '@comps/shared/contract/tracked-search';
import { newTrackedSearchId } from '@comps/shared/ids';
import { createdOnce } from '@comps/shared/internal/created-once';
import { csrfTokenFor } from '../../sessions/csrf.js';
import { getEffectivePlan } from '../../workspaces/workspace-service.js';
import { fieldValues, formField, queryField } from '../forms.js';
import { PageError } from '../page-error.js';
import { requestSignal } from '../request-signal.js';
import { frameOf, seeOther, sendPage, sessionOf } from '../respond.js';
import { EMPTY_FORM, readTrackedSearchForm, type TrackedSearchField, type TrackedSearchFormValues } from '../views/tracked-search-form.js';
import { deleteConfirmPage, trackedSearchPage, type Period, type TrackedSearchDone } from '../views/tracked-search-page.js';
import { limitReached, trackedSearchesPage } from '../views/tracked-searches-page.js';
import type { WebDeps } from '../web-deps.js';
import type { WebContext, WebState } from '../web-state.js';
import { webRouter } from '../web-router.js';

/** Sales shown on a tracked search's page at a time. */
const SALES_PAGE_SIZE = 20;
const DONE: readonly TrackedSearchDone[] = ['run', 'paused', 'resumed'];
/** The dashboard is no API key: the runs it starts are the workspace's, with no key in their history entries. */
const DASHBOARD_CALLER = { apiKeyId: null, apiKeyPrefix: null };
const PERIOD_LABELS: Record<string, string> = { from: 'The start date', to: 'The end date', interval: 'The step' };

function postedForm(ctx: WebContext): TrackedSearchFormValues {
  const text = (name: Exclude<TrackedSearchField, 'exactMatch' | 'statsInclude'>) => formField(ctx, name);
  return {
    keyword: text('keyword'),
    name: text('name'),
    marketSite: text('marketSite'),
    categoryId: text('categoryId'),
    itemCondition: text('itemCondition'),
    minPrice: text('minPrice'),
    maxPrice: text('maxPrice'),
    buyingFormat: text('buyingFormat'),
    exactMatch: formField(ctx, 'exactMatch') === 'true',
    schedule: text('schedule'),
    maxPagesPerRun: text('maxPagesPerRun'),
    statsInclude: fieldValues(ctx, 'statsInclude'),
  };
}

/** The period of the page's address; one the API would refuse is a 400 page that says why. */
function periodOf(ctx: WebContext): Period {
  const given = (name: string) => queryField(ctx, name) || undefined;
  const parsed = archiveStatsQuerySchema.safeParse({ from: given('from'), to: given('to'), interval: given('interval') });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0]);
    const explanation = field === 'from' && issue.code === 'custom' ? 'The start date must not be after the end date.' : `${PERIOD_LABELS[field] ?? 'The period'} ${issue.message}.`;
    throw new PageError(400, 'That period did not work', explanation);
  }
  return { from: parsed.data.from ?? '', to: parsed.data.to ?? '', interval: parsed.data.interval };
}

function salesCursorOf(ctx: WebContext): string {
  const cursor = queryField(ctx, 'cursor');
  if (cursor && !salesQueryObject.shape.cursor.safeParse(cursor).success) throw invalidSalesLink();
  return cursor;
}

const invalidSalesLink = () => new PageError(400, 'That link did not work', 'That page of sales does not exist. Open the tracked search again to see its newest sales.');

/** A tracked search of another workspace is not found, as one that does not exist: the 404 page. */
async function owned<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof AppError && error.code === 'tracked_search_not_found') throw new AppError('not_found', 'No such tracked search');
    throw error;
  }
}

/** Tracked searches: the list with the create form, a tracked search's page, its buttons and CSV, through the jobs service's procedures for the session's workspace only. */
export function trackedSearchRoutes(deps: WebDeps): Router<WebState> {
  const router = webRouter();
  const procedures = deps.jobs.client.trackedSearches;

  function trackedSearchIdOf(ctx: WebContext): string {
    const trackedSearchId = String(ctx.params.trackedSearchId);
    if (!TRACKED_SEARCH_ID_PATTERN.test(trackedSearchId)) throw new AppError('not_found', 'No such tracked search');
    return trackedSearchId;
  }

  async function sendList(ctx: WebContext, form: { values: TrackedSearchFormValues; errors?: Partial<Record<TrackedSearchField, string>>; error?: string }, status = 200, deleted = false) {
    const session = sessionOf(ctx);
    const [{ trackedSearches }, plan] = await Promise.all([
      procedures.list.query({ workspaceId: session.workspaceId }, { signal: requestSignal(ctx) }),
      getEffectivePlan(deps.db, session.workspaceId),
    ]);
    const view = { trackedSearches, limit: plan.trackedSearches, planName: plan.name, deleted, form: { csrfToken: csrfTokenFor(session.sessionId), ...form } };
    sendPage(ctx, trackedSearchesPage(frameOf(ctx, deps), view), status);
  }

  async function sendTrackedSearch(ctx: WebContext, trackedSearchId: string, extras: { done?: TrackedSearchDone | null; error?: string }, status = 200) {
    const session = sessionOf(ctx);
    const period = periodOf(ctx);
    const salesCursor = salesCursorOf(ctx);
    const owner = { workspaceId: session.workspaceId, trackedSearchId };
    const signal = requestSignal(ctx);
    const range = { ...(period.from ? { from: period.from } : {}), ...(period.to ? { to: period.to } : {}) };
    const [trackedSearch, { runs }, stats, sales] = await Promise.all([
      owned(procedures.get.query(owner, { signal })),
      owned(procedures.runs.query(owner, { signal })),
      owned(procedures.stats.query({ ...owner, ...range, interval: period.interval }, { signal })),
      owned(procedures.sales.query({ ...owner, ...range, limit: SALES_PAGE_SIZE, ...(salesCursor ? { cursor: salesCursor } : {}) }, { signal })).catch((error: unknown) => {
        // A cursor of the right shape that the jobs service cannot read.
        throw error instanceof AppError && error.code === 'invalid_request' && salesCursor ? invalidSalesLink() : error;
      }),
    ]);
    const view = { csrfToken: csrfTokenFor(session.sessionId), trackedSearch, runs, period, stats, sales, salesCursor, ...extras };
    sendPage(ctx, trackedSearchPage(frameOf(ctx, deps), view), status);
  }

  router.get('/dashboard/tracked-searches', async (ctx) => {
    await sendList(ctx, { values: EMPTY_FORM }, 200, queryField(ctx, 'deleted') === '1');
  });

  router.post('/dashboard/tracked-searches', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const values = postedForm(ctx);
    const reading = readTrackedSearchForm(values);
    if (!reading.ok) return sendList(ctx, { values, errors: reading.errors }, 400);
    const plan = await getEffectivePlan(deps.db, workspaceId);
    try {
      const input = { workspaceId, trackedSearchId: newTrackedSearchId(), ...DASHBOARD_CALLER, limit: plan.trackedSearches, body: reading.body };
      const created = await createdOnce(() => procedures.create.mutate(input));
      deps.logger.info({ workspaceId, trackedSearchId: created.trackedSearchId }, 'tracked search created');
      seeOther(ctx, `/dashboard/tracked-searches/${created.trackedSearchId}`);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'tracked_search_limit')) throw error;
      await sendList(ctx, { values, error: limitReached(plan.trackedSearches) }, 409);
    }
  });

  router.get('/dashboard/tracked-searches/:trackedSearchId', async (ctx) => {
    const done = queryField(ctx, 'done') as TrackedSearchDone;
    await sendTrackedSearch(ctx, trackedSearchIdOf(ctx), { done: DONE.includes(done) ? done : null });
  });

  router.post('/dashboard/tracked-searches/:trackedSearchId/run', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const trackedSearchId = trackedSearchIdOf(ctx);
    try {
      // Charged as the API's run-now is: each page the run fetches, one request.
      const run = await owned(procedures.runNow.mutate({ workspaceId, trackedSearchId, ...DASHBOARD_CALLER }));
      deps.logger.info({ workspaceId, trackedSearchId, runId: run.runId }, 'tracked search run started');
      seeOther(ctx, `/dashboard/tracked-searches/${trackedSearchId}?done=run`);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'run_in_progress')) throw error;
      await sendTrackedSearch(ctx, trackedSearchId, { error: 'A run of this tracked search is already running: wait for it to end (it is listed under Runs), then run it again.' }, 409);
    }
  });

  for (const [action, status, done] of [['pause', 'paused', 'paused'], ['resume', 'active', 'resumed']] as const) {
    router.post(`/dashboard/tracked-searches/:trackedSearchId/${action}`, async (ctx) => {
      const { workspaceId } = sessionOf(ctx);
      const trackedSearchId = trackedSearchIdOf(ctx);
      await owned(procedures.update.mutate({ workspaceId, trackedSearchId, changes: { status } }));
      deps.logger.info({ workspaceId, trackedSearchId, status }, 'tracked search status changed');
      seeOther(ctx, `/dashboard/tracked-searches/${trackedSearchId}?done=${done}`);
    });
  }

  router.get('/dashboard/tracked-searches/:trackedSearchId/delete', async (ctx) => {
    const session = sessionOf(ctx);
    const trackedSearch = await owned(procedures.get.query({ workspaceId: session.workspaceId, trackedSearchId: trackedSearchIdOf(ctx) }, { signal: requestSignal(ctx) }));
    sendPage(ctx, deleteConfirmPage(frameOf(ctx, deps), { csrfToken: csrfTokenFor(session.sessionId), trackedSearch }));
  });

  router.post('/dashboard/tracked-searches/:trackedSearchId/delete', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const trackedSearchId = trackedSearchIdOf(ctx);
    await owned(procedures.delete.mutate({ workspaceId, trackedSearchId }));
    deps.logger.info({ workspaceId, trackedSearchId }, 'tracked search deleted');
    seeOther(ctx, '/dashboard/tracked-searches?deleted=1');
  });

  router.get('/dashboard/tracked-searches/:trackedSearchId/sales.csv', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const trackedSearchId = trackedSearchIdOf(ctx);
    // Opened before the answer starts, so that another workspace's tracked search is the 404 page rather than a broken download.
    const csv = await deps.jobs.openSalesCsv(workspaceId, trackedSearchId, requestSignal(ctx));
    if (!csv) throw new AppError('not_found', 'No such tracked search');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="sales-${trackedSearchId}.csv"`);
    ctx.body = csv;
  });

  return router;
}
