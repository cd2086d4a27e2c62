import type { Router } from '@koa/router';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import { searchParamsSchema, sellThroughParamsSchema } from '@comps/shared/contract/listing-params';
import { AppError } from '@comps/shared/errors/app-error';
import { parseOrThrow } from '@comps/shared/errors/zod-details';
import { csrfTokenFor } from '../../sessions/csrf.js';
import { fieldValues } from '../forms.js';
import { requestSignal } from '../request-signal.js';
import { frameOf, sendPage, sessionOf } from '../respond.js';
import { EMPTY_EXPLORE_FORM, explorePage, type ExploreFailure, type ExploreForm, type ExploreView } from '../views/explore-page.js';
import type { WebDeps } from '../web-deps.js';
import type { WebContext, WebState } from '../web-state.js';
import { webRouter } from '../web-router.js';

/** The failures the page explains in words (the api's answers to a search); anything else is the error page. */
const EXPLAINED = new Set<ErrorCode>([
  'invalid_request',
  'quota_exhausted',
  'rate_limited',
  'concurrency_limited',
  'upstream_error',
  'upstream_blocked',
  'upstream_rate_limited',
  'upstream_timeout',
  'data_gate_closed',
  'site_not_enabled',
  'service_unavailable',
]);

/** The search as the form (or, on a GET, the address: a link may fill the form in) gives it. */
function formOf(ctx: WebContext): ExploreForm {
  const first = (name: string) => fieldValues(ctx, name)[0] ?? '';
  return {
    keyword: first('keyword'),
    marketSite: first('marketSite') || EMPTY_EXPLORE_FORM.marketSite,
    itemCondition: first('itemCondition') || EMPTY_EXPLORE_FORM.itemCondition,
    sold: first('sold') !== 'false',
    statsInclude: fieldValues(ctx, 'statsInclude'),
  };
}

/** The query parameters of `GET /v1/scrape` the form stands for (the jobs service validates them again, with the same schema). */
function searchQueryOf(form: ExploreForm) {
  return {
    keyword: form.keyword,
    marketSite: form.marketSite,
    itemCondition: form.itemCondition,
    sold: String(form.sold),
    ...(form.statsInclude.length > 0 ? { statsInclude: form.statsInclude.join(',') } : {}),
  };
}

/** Those of `GET /v1/sell-through`: the search's, without what one page of results is about. */
function sellThroughQueryOf(form: ExploreForm) {
  return { keyword: form.keyword, marketSite: form.marketSite, itemCondition: form.itemCondition };
}

function failureOf(error: AppError): ExploreFailure {
  return { code: error.code, status: error.status, message: error.message, retryAfter: error.retryAfter ?? null, fields: error.details ?? [] };
}

/**
 * The Explore page: the form, and the answer of one metered search (or sell-through) for the
 * session's workspace. The answer is the page of the POST itself: it was charged once, and only the
 * browser holds it (a reload asks the browser to post again, which it says). A refusal or failure is
 * the form again with what went wrong in words, under the contract's status for it.
 */
export function exploreRoutes(deps: WebDeps): Router<WebState> {
  const router = webRouter();

  const render = (ctx: WebContext, view: Omit<ExploreView, 'csrfToken'>, status = 200) =>
    sendPage(ctx, explorePage(frameOf(ctx, deps), { csrfToken: csrfTokenFor(sessionOf(ctx).sessionId), ...view }), status);

  /** Runs `ask` on the jobs service and renders its answer, or the failure it was refused with. */
  async function answer(ctx: WebContext, form: ExploreForm, ask: (signal: AbortSignal) => Promise<Omit<ExploreView, 'csrfToken' | 'form'>>) {
    try {
      render(ctx, { form, ...(await ask(requestSignal(ctx))) });
    } catch (error) {
      if (!(error instanceof AppError && EXPLAINED.has(error.code))) throw error;
      if (error.code !== 'invalid_request') deps.logger.info({ code: error.code, reason: error.message }, 'explore search not answered');
      if (error.retryAfter) ctx.set('Retry-After', String(error.retryAfter));
      render(ctx, { form, failure: failureOf(error) }, error.status);
    }
  }

  router.get('/dashboard/explore', (ctx) => {
    render(ctx, { form: formOf(ctx) });
  });

  router.post('/dashboard/explore', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const form = formOf(ctx);
    await answer(ctx, form, async (signal) => {
      // Refused here already, as the api would refuse it: a form that cannot be a search costs no call.
      parseOrThrow(searchParamsSchema, searchQueryOf(form), 'Invalid search');
      return { search: await deps.jobs.explore.search.mutate({ workspaceId, query: searchQueryOf(form) }, { signal }) };
    });
  });

  router.post('/dashboard/explore/sell-through', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const form = formOf(ctx);
    await answer(ctx, form, async (signal) => {
      parseOrThrow(sellThroughParamsSchema, sellThroughQueryOf(form), 'Invalid search');
      return { sellThrough: await deps.jobs.explore.sellThrough.mutate({ workspaceId, query: sellThroughQueryOf(form) }, { signal }) };
    });
  });

  return router;
}
