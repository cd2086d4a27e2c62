import { webhookCreateSchema, type WebhookCreate, type WebhookEventType } from '@comps/shared/contract/webhook';

/** An endpoint's form as posted (the values are kept to show the form again when it is refused). */
export interface EndpointFormValues {
  url: string;
  events: string[];
  description: string;
}

export type FormReading<T> = { ok: true; value: T } | { ok: false; problems: string[] };

const eventsSchema = webhookCreateSchema.shape.events;

/** What a refused field says to a person: the contract's rule, in a sentence about the form. */
function problemOf(field: PropertyKey | undefined, message: string, values: Partial<EndpointFormValues>): string {
  switch (field) {
    case 'url':
      return values.url?.trim() ? `The URL ${message}.` : 'Enter the URL to send events to.';
    case 'events':
      return values.events?.length ? 'Choose events from the list.' : 'Choose at least one event.';
    case 'description':
      return `The description ${message}.`;
    default:
      return message;
  }
}

/**
 * The create form checked with the API's own schema (the same limits as `POST /v1/webhooks`); the
 * URL's address rules are the service's, checked when it is registered.
 */
export function readEndpointForm(values: EndpointFormValues): FormReading<WebhookCreate> {
  const parsed = webhookCreateSchema.safeParse({ url: values.url, events: values.events, ...(values.description.trim() ? { description: values.description } : {}) });
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => problemOf(issue.path[0], issue.message, values));
  return { ok: false, problems: [...new Set(problems)] };
}

/** The events of the change-events form. */
export function readEventsField(events: string[]): FormReading<WebhookEventType[]> {
  const parsed = eventsSchema.safeParse(events);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: [problemOf('events', '', { events })] };
}
