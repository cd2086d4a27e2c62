import { z } from 'zod';
import { itemDetailsSchema } from '@comps/shared/contract/listing';
import { itemIdSchema, itemQueryObject } from '@comps/shared/contract/listing-params';
import { defineRoute } from '../../http/route-definition.js';
import { ITEM_EXAMPLE } from '../examples.js';

const itemPath = z.object({ itemId: itemIdSchema });

/** `GET /v1/item/{itemId}`: one metered lookup, charged like a search. */
export function getItemRoute() {
  return defineRoute<z.output<typeof itemQueryObject>, z.output<typeof itemPath>>({
    method: 'GET',
    path: '/v1/item/{itemId}',
    operationId: 'getItem',
    summary: 'One item by its id',
    description: 'A separate charged request.',
    tag: 'Listings',
    params: { schema: itemPath, fields: itemPath, message: 'Invalid item id' },
    query: { schema: itemQueryObject, fields: itemQueryObject, message: 'Invalid query parameters' },
    market: 'call',
    errors: ['item_not_found'],
    facts: { from: 'query', site: true },
    success: { status: 200, schema: itemDetailsSchema, description: 'The item details' },
    example: ITEM_EXAMPLE,
    handle: (request) => request.answerWithCall({ kind: 'item', itemId: request.params.itemId, marketSite: request.query.marketSite }),
  });
}
