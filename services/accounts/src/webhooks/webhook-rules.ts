import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, type DisabledReason, type Webhook, type WebhookEventType } from '@comps/shared/contract/webhook';
import type { StoredWebhookEndpoint, WebhookEndpointPatch } from './webhook-repository.js';

/** The decisions about an endpoint's state, apart from the database: what a change or an attempt's outcome does to it. */

export interface EndpointChanges {
  url?: string | undefined;
  events?: WebhookEventType[] | undefined;
  description?: string | null | undefined;
  status?: 'enabled' | 'disabled' | undefined;
}

export function eventsColumn(events: readonly WebhookEventType[]): string {
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)).join(',');
}

function eventsOf(column: string): WebhookEventType[] {
  const listed = column.split(',');
  return WEBHOOK_EVENT_TYPES.filter((type) => listed.includes(type));
}

/** An empty note is no note. */
export function descriptionColumn(description: string | null | undefined): string | null {
  return description ? description : null;
}

export function webhookOf(row: StoredWebhookEndpoint): Webhook {
  return {
    webhookId: row.id,
    url: row.url,
    events: eventsOf(row.events),
    description: row.description,
    status: row.status,
    disabledReason: row.status === 'disabled' ? row.disabledReason : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A change asked for: enabling clears the reason it was disabled for and its failing streak (it
 * starts afresh); disabling is the caller's own (`manual`).
 */
export function patchForChanges(changes: EndpointChanges, now: Date): WebhookEndpointPatch {
  const patch: WebhookEndpointPatch = { updatedAt: now };
  if (changes.url !== undefined) patch.url = changes.url;
  if (changes.events !== undefined) patch.events = eventsColumn(changes.events);
  if (changes.description !== undefined) patch.description = descriptionColumn(changes.description);
  if (changes.status === 'enabled') Object.assign(patch, { status: 'enabled', disabledReason: null, failingSince: null });
  if (changes.status === 'disabled') Object.assign(patch, { status: 'disabled', disabledReason: 'manual' });
  return patch;
}

export type AttemptOutcome = 'succeeded' | 'failed' | 'gone';

/**
 * What an attempt's outcome does: a success ends the failing streak; 410 Gone disables the
 * endpoint; a failure starts the streak (if none runs) and disables the endpoint once the streak
 * is `failingDisableMs` long (every delivery failed for 5 days). Null: nothing changes.
 */
export function patchForOutcome(row: StoredWebhookEndpoint, outcome: AttemptOutcome, now: Date): WebhookEndpointPatch | null {
  switch (outcome) {
    case 'succeeded':
      return row.failingSince === null ? null : { failingSince: null, updatedAt: now };
    case 'gone':
      return row.status === 'enabled' ? { status: 'disabled', disabledReason: 'gone', updatedAt: now } : null;
    case 'failed': {
      const since = row.failingSince ?? now;
      const patch: WebhookEndpointPatch = {};
      if (row.failingSince === null) patch.failingSince = since;
      if (row.status === 'enabled' && now.getTime() - since.getTime() >= WEBHOOK_LIMITS.failingDisableMs) {
        Object.assign(patch, { status: 'disabled', disabledReason: 'failing' });
      }
      return Object.keys(patch).length === 0 ? null : { ...patch, updatedAt: now };
    }
  }
}

/** The endpoint's reason to be disabled once `patch` applies; null while it is enabled. */
export function disabledReasonAfter(row: StoredWebhookEndpoint, patch: WebhookEndpointPatch | null): DisabledReason | null {
  const status = patch?.status ?? row.status;
  if (status !== 'disabled') return null;
  return (patch?.disabledReason === undefined ? row.disabledReason : patch.disabledReason) ?? null;
}
