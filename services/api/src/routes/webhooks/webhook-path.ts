import { z } from 'zod';
import { deliveryIdSchema, webhookIdSchema } from '@comps/shared/contract/webhook';
import type { InputSpec } from '../../http/route-definition.js';

const webhookPath = z.object({ webhookId: webhookIdSchema.meta({ description: 'the webhook endpoint id' }) });
const deliveryPath = webhookPath.extend({ deliveryId: deliveryIdSchema.meta({ description: 'the delivery id (its `webhook-id` header)' }) });

/** The `{webhookId}` of the webhook routes: a malformed one is a 400, an unknown one accounts' 404. */
export const WEBHOOK_PATH: InputSpec<z.output<typeof webhookPath>> = { schema: webhookPath, fields: webhookPath, message: 'Invalid webhook id' };

/** The `{webhookId}` and `{deliveryId}` of a delivery's route. */
export const DELIVERY_PATH: InputSpec<z.output<typeof deliveryPath>> = { schema: deliveryPath, fields: deliveryPath, message: 'Invalid webhook or delivery id' };
