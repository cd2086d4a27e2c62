/** The task kind of a webhook delivery's attempts. */
export const DELIVERY_TASK = 'webhook-delivery';

/** A delivery's task exists once: its key. */
export function deliveryTaskKey(deliveryId: string): string {
  return `delivery:${deliveryId}`;
}
