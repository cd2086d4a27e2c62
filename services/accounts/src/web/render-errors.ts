import type { Middleware } from 'koa';
import { isDatabaseUnavailable } from '@comps/shared/db/database-errors';
import { AppError } from '@comps/shared/errors/app-error';
import type { Logger } from '@comps/shared/logging/create-logger';
import { csrfTokenFor } from '../sessions/csrf.js';
import { PageError } from './page-error.js';
import type { AssetStore } from './static-assets.js';
import { errorPage } from './views/error-page.js';
import type { WebState } from './web-state.js';

interface PageFailure {
  status: number;
  title: string;
  explanation: string;
  retryAfter?: number;
  allow?: string[];
}

const UNAVAILABLE: PageFailure = {
  status: 503,
  title: 'Temporarily unavailable',
  explanation: 'Part of the service is not answering right now. Nothing was changed; try again in a moment.',
  retryAfter: 2,
};

/** What a failure looks like to a person; the contract's error codes decide the status as on the API. */
function failureOf(error: unknown): PageFailure {
  if (error instanceof PageError) return { status: error.status, title: error.title, explanation: error.explanation };
  if (error instanceof AppError) {
    switch (error.code) {
      case 'not_found':
        return { status: 404, title: 'Page not found', explanation: 'There is no page at this address, or it belongs to another account.' };
      case 'method_not_allowed':
        return { status: 405, title: 'Not allowed here', explanation: 'This page does not accept that kind of request.', allow: error.allow ?? [] };
      case 'invalid_request':
        return { status: 400, title: 'That did not work', explanation: error.message };
      case 'payload_too_large':
        return { status: 413, title: 'Too much data', explanation: 'The form sent more data than a form here ever needs.' };
      case 'unsupported_media_type':
        return { status: 415, title: 'Not a form', explanation: 'The dashboard accepts forms sent by its own pages only.' };
      case 'rate_limited':
        return { status: 429, title: 'Too many requests', explanation: error.message, retryAfter: error.retryAfter ?? 60 };
      case 'service_unavailable':
        return { ...UNAVAILABLE, retryAfter: error.retryAfter ?? 2 };
      default:
        break;
    }
  }
  const status = (error as { status?: unknown } | null)?.status;
  // What koa-body raises for a body it will not read.
  if (status === 413) return failureOf(new AppError('payload_too_large', 'Too large'));
  if (status === 415) return failureOf(new AppError('unsupported_media_type', 'Not a form'));
  if (status === 400) return { status: 400, title: 'That did not work', explanation: 'The form could not be read. Reload the page and try again.' };
  if (isDatabaseUnavailable(error)) return UNAVAILABLE;
  return { status: 500, title: 'Something went wrong', explanation: 'This is a fault on our side, and it has been logged. Nothing was changed; try again in a moment.' };
}

/**
 * Errors of the dashboard are pages, never the API's JSON and never a stack trace: the status of
 * the contract's code, a heading, what to do, and the request id to quote. A path that matched
 * nothing is the 404 page. Unexpected errors are logged whole.
 */
export function renderErrors(logger: Logger, assets: AssetStore): Middleware<WebState> {
  return async (ctx, next) => {
    let failure: PageFailure;
    try {
      await next();
      if (ctx.status !== 404 || ctx.body != null) return;
      failure = failureOf(new AppError('not_found', 'No page'));
    } catch (error) {
      failure = failureOf(error);
      if (failure.status === 500) logger.error({ err: error }, 'unexpected error');
      else if (failure.status === 503) logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'dependency unavailable');
    }
    ctx.remove('Content-Disposition');
    ctx.remove('Content-Encoding');
    ctx.status = failure.status;
    if (failure.retryAfter !== undefined) ctx.set('Retry-After', String(failure.retryAfter));
    if (failure.allow) ctx.set('Allow', failure.allow.join(', '));
    const session = ctx.state.session;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = errorPage(
      { assets, account: session ? { email: session.email, csrfToken: csrfTokenFor(session.sessionId) } : undefined },
      { status: failure.status, title: failure.title, explanation: failure.explanation, requestId: ctx.state.requestId },
    );
  };
}
