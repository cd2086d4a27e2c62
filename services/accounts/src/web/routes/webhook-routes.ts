import type { Router } from '@koa/router';
import { DELIVERY_ID_PATTERN, WEBHOOK_ID_PATTERN, type Webhook } from '@comps/shared/contract/webhook';
import { AppError } from '@comps/shared/errors/app-error';
import { newWebhookId } from '@comps/shared/ids';
import { html } from '../html.js';
import { csrfTokenFor } from '../../sessions/csrf.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, rotateWebhookSecret, updateWebhook } from '../../webhooks/webhook-service.js';
import { getEffectivePlan } from '../../workspaces/workspace-service.js';
import { clearCookie, NEW_WEBHOOK_SECRET_COOKIE, NEW_WEBHOOK_SECRET_COOKIE_PATH, readCookie, setCookie } from '../cookies.js';
import { formField, fieldValues, queryField } from '../forms.js';
import { frameOf, seeOther, sendPage, sessionOf } from '../respond.js';
import { deliveryOutcome, type OutcomeNotice } from '../views/webhook-parts.js';
import { deleteWebhookPage, webhookPage, type DeliveryLog, type WebhookView } from '../views/webhook-page.js';
import { webhooksPage, type WebhooksView } from '../views/webhooks-page.js';
import { readEndpointForm, readEventsField } from '../webhook-form.js';
import { openWebhookSecret, sealWebhookSecret } from '../webhook-secret-flash.js';
import type { WebDeps } from '../web-deps.js';
import type { WebContext, WebState } from '../web-state.js';
import { webRouter } from '../web-router.js';

const DELIVERIES_PER_PAGE = 20;
/** The jobs service's cursor as the API accepts it (base64url); anything else is a broken link. */
const CURSOR = /^[A-Za-z0-9_-]{1,100}$/;
const SECRET_FLASH_MAX_AGE_MS = 5 * 60_000;

const DONE: Record<string, string> = {
  enabled: 'The endpoint is enabled: events are delivered to it again.',
  disabled: 'The endpoint is disabled: nothing is delivered to it until you enable it.',
  events: 'The events are saved.',
};

/** Accounts' and the jobs service's "no such endpoint / delivery" (unknown, or another workspace's) are the dashboard's 404 page. */
async function foundOrNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && (error.code === 'webhook_not_found' || error.code === 'delivery_not_found')) throw new AppError('not_found', error.message);
    throw error;
  }
}

/**
 * The workspace's webhook endpoints (accounts' own code) and their delivery logs, tests and retries
 * (the jobs service, over its internal port, once accounts' code has said the workspace owns the endpoint).
 */
export function webhookRoutes(deps: WebDeps): Router<WebState> {
  const router = webRouter();

  /** The session's workspace's endpoint of the path; another workspace's is not found, as one that does not exist. */
  async function ownEndpoint(ctx: WebContext): Promise<Webhook> {
    const webhookId = String(ctx.params.webhookId);
    if (!WEBHOOK_ID_PATTERN.test(webhookId)) throw new AppError('not_found', 'No such webhook endpoint');
    return foundOrNotFound(getWebhook(deps.webhooks, sessionOf(ctx).workspaceId, webhookId));
  }

  async function sendListPage(ctx: WebContext, view: Partial<WebhooksView>, status = 200): Promise<void> {
    const session = sessionOf(ctx);
    const [{ webhooks }, plan] = await Promise.all([listWebhooks(deps.webhooks, session.workspaceId), getEffectivePlan(deps.db, session.workspaceId)]);
    sendPage(ctx, webhooksPage(frameOf(ctx, deps), { csrfToken: csrfTokenFor(session.sessionId), webhooks, limit: plan.webhookEndpoints, ...view }), status);
  }

  /** A page of the endpoint's deliveries; when the jobs service cannot answer, the page says so (and is a 503). */
  async function readLog(ctx: WebContext, webhookId: string): Promise<{ log: DeliveryLog; unavailable: boolean }> {
    const owned = { workspaceId: sessionOf(ctx).workspaceId, webhookId };
    const asked = queryField(ctx, 'cursor');
    const brokenLink = 'That page link is not valid; these are the newest deliveries.';
    const page = (cursor: string | undefined) => deps.jobs.client.webhooks.deliveries.query({ ...owned, limit: DELIVERIES_PER_PAGE, ...(cursor ? { cursor } : {}) });
    try {
      if (asked && CURSOR.test(asked)) {
        try {
          const older = await page(asked);
          return { log: { deliveries: older.deliveries, olderCursor: older.nextCursor, paged: true }, unavailable: false };
        } catch (error) {
          // A cursor of the right characters that is no cursor of the jobs service's: the newest page, with a word why.
          if (!(error instanceof AppError && error.code === 'invalid_request')) throw error;
        }
      }
      const newest = await page(undefined);
      return { log: { deliveries: newest.deliveries, olderCursor: newest.nextCursor, paged: false, problem: asked ? brokenLink : null }, unavailable: false };
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'service_unavailable')) throw error;
      deps.logger.warn({ reason: error.message }, 'jobs service unavailable');
      ctx.set('Retry-After', String(error.retryAfter ?? 2));
      return { log: { deliveries: [], olderCursor: null, paged: false, problem: 'The jobs service is not answering right now, so the deliveries cannot be listed. Try again in a moment.' }, unavailable: true };
    }
  }

  /** The secret just made for this endpoint, read once: the next load of the page shows it no more. */
  function takeSecret(ctx: WebContext, webhookId: string): WebhookView['secret'] {
    const sealed = readCookie(ctx, NEW_WEBHOOK_SECRET_COOKIE);
    if (!sealed) return null;
    clearCookie(ctx, NEW_WEBHOOK_SECRET_COOKIE, NEW_WEBHOOK_SECRET_COOKIE_PATH);
    const flash = openWebhookSecret(sessionOf(ctx).sessionId, sealed);
    return flash && flash.webhookId === webhookId ? { value: flash.secret, previousSecretExpiresAt: flash.previousSecretExpiresAt } : null;
  }

  function putSecret(ctx: WebContext, flash: { webhookId: string; secret: string; previousSecretExpiresAt: string | null }): void {
    setCookie(ctx, NEW_WEBHOOK_SECRET_COOKIE, sealWebhookSecret(sessionOf(ctx).sessionId, flash), {
      path: NEW_WEBHOOK_SECRET_COOKIE_PATH,
      sameSite: 'strict',
      maxAgeMs: SECRET_FLASH_MAX_AGE_MS,
    });
  }

  /** What the form before did, from the address it sent the browser to. */
  function outcomeOf(ctx: WebContext, webhookId: string, log: DeliveryLog): OutcomeNotice | null {
    const done = DONE[queryField(ctx, 'done')];
    if (done) return { kind: 'success', message: html`${done}` };
    for (const [param, subject] of [['sent', 'The test event'], ['retried', 'The delivery']] as const) {
      const deliveryId = queryField(ctx, param);
      if (!DELIVERY_ID_PATTERN.test(deliveryId)) continue;
      const delivery = log.deliveries.find((candidate) => candidate.deliveryId === deliveryId);
      return deliveryOutcome(subject, delivery, `/dashboard/webhooks/${webhookId}?${param}=${deliveryId}`);
    }
    return null;
  }

  async function sendEndpointPage(ctx: WebContext, webhook: Webhook, view: Partial<WebhookView> = {}, status = 200): Promise<void> {
    const { log, unavailable } = await readLog(ctx, webhook.webhookId);
    const page: WebhookView = {
      csrfToken: csrfTokenFor(sessionOf(ctx).sessionId),
      webhook,
      log,
      secret: takeSecret(ctx, webhook.webhookId),
      outcome: outcomeOf(ctx, webhook.webhookId, log),
      ...view,
    };
    sendPage(ctx, webhookPage(frameOf(ctx, deps), page), unavailable && status === 200 ? 503 : status);
  }

  router.get('/dashboard/webhooks', async (ctx) => {
    const deleted = queryField(ctx, 'deleted');
    await sendListPage(ctx, { deletedId: WEBHOOK_ID_PATTERN.test(deleted) ? deleted : null });
  });

  router.post('/dashboard/webhooks', async (ctx) => {
    const session = sessionOf(ctx);
    const form = { url: formField(ctx, 'url'), events: fieldValues(ctx, 'events'), description: formField(ctx, 'description') };
    const reading = readEndpointForm(form);
    if (!reading.ok) return sendListPage(ctx, { form, problems: reading.problems }, 400);
    let created;
    try {
      created = await createWebhook(deps.webhooks, session.workspaceId, newWebhookId(), reading.value);
    } catch (error) {
      if (error instanceof AppError && error.code === 'invalid_webhook_url') return sendListPage(ctx, { form, problems: [`This URL cannot receive webhooks: ${error.message}.`] }, 400);
      if (error instanceof AppError && error.code === 'webhook_limit') return sendListPage(ctx, { form, problems: [`${error.message}.`] }, 409);
      throw error;
    }
    deps.logger.info({ workspaceId: session.workspaceId, webhookId: created.webhookId }, 'webhook endpoint created');
    putSecret(ctx, { webhookId: created.webhookId, secret: created.secret, previousSecretExpiresAt: null });
    seeOther(ctx, `/dashboard/webhooks/${created.webhookId}`);
  });

  router.get('/dashboard/webhooks/:webhookId', async (ctx) => {
    await sendEndpointPage(ctx, await ownEndpoint(ctx));
  });

  router.post('/dashboard/webhooks/:webhookId/status', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const webhook = await ownEndpoint(ctx);
    const status = formField(ctx, 'status');
    if (status !== 'enabled' && status !== 'disabled') throw new AppError('invalid_request', 'Choose to enable or to disable the endpoint.');
    await foundOrNotFound(updateWebhook(deps.webhooks, workspaceId, webhook.webhookId, { status }));
    deps.logger.info({ workspaceId, webhookId: webhook.webhookId, status }, 'webhook endpoint status changed');
    seeOther(ctx, `/dashboard/webhooks/${webhook.webhookId}?done=${status}`);
  });

  router.post('/dashboard/webhooks/:webhookId/events', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const webhook = await ownEndpoint(ctx);
    const posted = fieldValues(ctx, 'events');
    const reading = readEventsField(posted);
    if (!reading.ok) return sendEndpointPage(ctx, webhook, { eventsProblem: reading.problems.join(' '), events: posted }, 400);
    await foundOrNotFound(updateWebhook(deps.webhooks, workspaceId, webhook.webhookId, { events: reading.value }));
    seeOther(ctx, `/dashboard/webhooks/${webhook.webhookId}?done=events`);
  });

  router.post('/dashboard/webhooks/:webhookId/secret', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const webhook = await ownEndpoint(ctx);
    const rotated = await foundOrNotFound(rotateWebhookSecret(deps.webhooks, workspaceId, webhook.webhookId));
    deps.logger.info({ workspaceId, webhookId: webhook.webhookId }, 'webhook secret rotated');
    putSecret(ctx, rotated);
    seeOther(ctx, `/dashboard/webhooks/${webhook.webhookId}`);
  });

  router.get('/dashboard/webhooks/:webhookId/delete', async (ctx) => {
    const webhook = await ownEndpoint(ctx);
    sendPage(ctx, deleteWebhookPage(frameOf(ctx, deps), { csrfToken: csrfTokenFor(sessionOf(ctx).sessionId), webhook }));
  });

  router.post('/dashboard/webhooks/:webhookId/delete', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const webhook = await ownEndpoint(ctx);
    await foundOrNotFound(deleteWebhook(deps.webhooks, workspaceId, webhook.webhookId));
    deps.logger.info({ workspaceId, webhookId: webhook.webhookId }, 'webhook endpoint deleted');
    seeOther(ctx, `/dashboard/webhooks?deleted=${webhook.webhookId}`);
  });

  router.post('/dashboard/webhooks/:webhookId/test', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const webhook = await ownEndpoint(ctx);
    const delivery = await deps.jobs.client.webhooks.test.mutate({ workspaceId, webhookId: webhook.webhookId });
    seeOther(ctx, `/dashboard/webhooks/${webhook.webhookId}?sent=${delivery.deliveryId}`);
  });

  router.post('/dashboard/webhooks/:webhookId/deliveries/:deliveryId/retry', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const webhook = await ownEndpoint(ctx);
    const deliveryId = String(ctx.params.deliveryId);
    if (!DELIVERY_ID_PATTERN.test(deliveryId)) throw new AppError('not_found', 'No such delivery');
    const delivery = await foundOrNotFound(deps.jobs.client.webhooks.retry.mutate({ workspaceId, webhookId: webhook.webhookId, deliveryId }));
    seeOther(ctx, `/dashboard/webhooks/${webhook.webhookId}?retried=${delivery.deliveryId}`);
  });

  return router;
}
