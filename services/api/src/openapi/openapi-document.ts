import { z } from 'zod';
import { errorBodySchema } from '@comps/shared/contract/error-body';
import { ERROR_STATUS, type ErrorCode } from '@comps/shared/contract/error-codes';
import { capabilitiesSchema } from '@comps/shared/contract/capabilities';
import { itemDetailsSchema, listingCollectionSchema, listingItemSchema } from '@comps/shared/contract/listing';
import { moneySchema } from '@comps/shared/contract/money';
import { API_VERSION } from '@comps/shared/contract/limits';
import { historyEntrySchema, historyPageSchema } from '@comps/shared/contract/request-history';
import { usageSchema } from '@comps/shared/contract/usage';
import { jobListSchema, jobRecordSchema } from '@comps/shared/contract/job';
import {
  archiveStatsSchema,
  runListSchema,
  runSchema,
  saleListSchema,
  saleSchema,
  trackedSearchDeletedSchema,
  trackedSearchListSchema,
  trackedSearchSchema,
} from '@comps/shared/contract/tracked-search';
import {
  deliveryListSchema,
  deliverySchema,
  rotatedSecretSchema,
  webhookDeletedSchema,
  webhookListSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from '@comps/shared/contract/webhook';
import { errorCodesOf, type ApiKeyRoute, type RouteDefinition } from '../http/route-definition.js';

type JsonObject = Record<string, unknown>;

/** Contract schemas with names: they become components, and references between them `$ref`s. */
const NAMED_SCHEMAS: Array<[string, z.ZodType]> = [
  ['Money', moneySchema],
  ['ListingItem', listingItemSchema],
  ['ListingCollection', listingCollectionSchema],
  ['ItemDetails', itemDetailsSchema],
  ['Capabilities', capabilitiesSchema],
  ['Usage', usageSchema],
  ['HistoryEntry', historyEntrySchema],
  ['HistoryPage', historyPageSchema],
  ['JobRecord', jobRecordSchema],
  ['JobList', jobListSchema],
  ['TrackedSearch', trackedSearchSchema],
  ['TrackedSearchList', trackedSearchListSchema],
  ['TrackedSearchDeleted', trackedSearchDeletedSchema],
  ['Run', runSchema],
  ['RunList', runListSchema],
  ['Sale', saleSchema],
  ['SaleList', saleListSchema],
  ['ArchiveStats', archiveStatsSchema],
  ['Webhook', webhookSchema],
  ['WebhookWithSecret', webhookWithSecretSchema],
  ['WebhookList', webhookListSchema],
  ['WebhookDeleted', webhookDeletedSchema],
  ['RotatedSecret', rotatedSecretSchema],
  ['Delivery', deliverySchema],
  ['DeliveryList', deliveryListSchema],
  ['Error', errorBodySchema],
];

function componentSchemas(): { schemas: JsonObject; refOf: Map<z.ZodType, string> } {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of NAMED_SCHEMAS) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, target: 'draft-2020-12' }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return { schemas, refOf: new Map(NAMED_SCHEMAS.map(([id, schema]) => [schema, `#/components/schemas/${id}`])) };
}

/** A query or path parameter as a caller writes it: the `param` metadata, not the string it arrives as. */
function parameterSchema(field: z.ZodType): JsonObject {
  const json = z.toJSONSchema(field, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const meta = z.globalRegistry.get(ctx.zodSchema as unknown as z.ZodType) as { param?: JsonObject } | undefined;
      const target = ctx.jsonSchema as JsonObject;
      if (meta?.param) {
        for (const key of Object.keys(target)) if (key !== 'description') delete target[key];
        Object.assign(target, meta.param);
      }
      delete target.param;
    },
  }) as JsonObject;
  delete json.$schema;
  const fallback = field.safeParse(undefined);
  if (fallback.success && fallback.data !== undefined) json.default = fallback.data;
  return json;
}

function parameters(object: z.ZodObject | undefined, location: 'query' | 'path', examples: Record<string, unknown> = {}): JsonObject[] {
  if (!object) return [];
  return Object.entries(object.shape).map(([name, field]) => {
    const schema = parameterSchema(field as z.ZodType);
    const { description, ...rest } = schema;
    return {
      name,
      in: location,
      required: location === 'path' || !(field as z.ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: rest,
      ...(examples[name] === undefined ? {} : { example: examples[name] }),
    };
  });
}

const HEADER = (description: string, schema: JsonObject = { type: 'string' }) => ({ description, schema });

const COMMON_HEADERS = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
const AUTH_HEADERS = {
  ...COMMON_HEADERS,
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'X-Quota-Limit': { $ref: '#/components/headers/X-Quota-Limit' },
  'X-Quota-Remaining': { $ref: '#/components/headers/X-Quota-Remaining' },
};

function errorResponses(codes: ErrorCode[], authenticated: boolean): JsonObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, statusCodes]) => [
        String(status),
        {
          description: `The error object; \`code\` is ${statusCodes.map((code) => `\`${code}\``).join(', ')}`,
          headers: {
            ...(authenticated && status !== 401 ? AUTH_HEADERS : COMMON_HEADERS),
            ...(status === 429 || status === 503 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
          },
          // The codes this status carries here, in the schema itself: a client can switch on them.
          content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { code: { enum: statusCodes } } }] } } },
        },
      ]),
  );
}

/** A JSON request body as a caller writes it (defaults shown, nothing required that has one). */
function requestBodySchema(body: z.ZodObject): JsonObject {
  const json = z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
}

function successResponses(route: RouteDefinition, successRef: string | undefined): JsonObject {
  const contentType = route.success.contentType ?? 'application/json';
  const schema = contentType === 'application/json' ? (successRef ? { $ref: successRef } : { type: 'object' }) : { type: 'string' };
  const headers = {
    ...(route.access === 'apiKey' ? AUTH_HEADERS : COMMON_HEADERS),
    ...(route.access === 'apiKey' && route.idempotencyKey ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } } : {}),
  };
  const answer = (description: string, example?: unknown) => ({
    description,
    headers,
    content: { [contentType]: { schema, ...(example === undefined ? {} : { example }) } },
  });
  return {
    [String(route.success.status)]: answer(route.success.description, route.example.response),
    ...(route.success.also ? { [String(route.success.also.status)]: answer(route.success.also.description) } : {}),
  };
}

/** One route's operation: its inputs from its schemas, its answers from what it declares it does. */
function operationOf(route: RouteDefinition, refOf: Map<z.ZodType, string>): JsonObject {
  const authenticated = route.access === 'apiKey';
  const inputs: Partial<ApiKeyRoute> = route.access === 'apiKey' ? route : {};
  const successRef = route.success.schema ? refOf.get(route.success.schema) : undefined;
  const request = route.example.request;
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    security: authenticated ? [{ bearerAuth: [] }] : [],
    parameters: [
      ...parameters(inputs.params?.fields, 'path', request?.path),
      ...parameters(inputs.query?.fields, 'query', request?.query),
      ...(inputs.idempotencyKey ? [{ $ref: '#/components/parameters/Idempotency-Key' }] : []),
    ],
    ...(inputs.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: requestBodySchema(inputs.body.fields), ...(request?.body ? { example: request.body } : {}) } } } }
      : {}),
    responses: {
      ...successResponses(route, successRef),
      ...errorResponses(errorCodesOf(route), authenticated),
    },
  };
}

/** The OpenAPI 3.1 document of the public API, built from the route definitions and the contract's zod schemas. */
export function buildOpenApiDocument(routes: RouteDefinition[]): JsonObject {
  const { schemas, refOf } = componentSchemas();
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(route, refOf) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Comps API: sold-listings data',
      version: API_VERSION,
      description: 'Normalized listing data from a regional online marketplace, mainly sold listings.',
    },
    servers: [{ url: '/' }],
    tags: [{ name: 'Listings' }, { name: 'Jobs' }, { name: 'Tracked searches' }, { name: 'Webhooks' }, { name: 'Account' }, { name: 'Service' }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key, `sk_…`, from the dashboard' } },
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'A caller-chosen operation id. Within 24 hours the same key with the same parameters replays the first success, uncharged; other parameters are 409.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
        },
      },
      headers: {
        'X-Request-Id': HEADER('The request id, `req_` + ULID; error bodies repeat it as `requestId`'),
        'RateLimit-Policy': HEADER('The workspace rate limit, e.g. `"minute";q=60;w=60`'),
        RateLimit: HEADER('What is left of it, e.g. `"minute";r=57;t=41`'),
        'X-Quota-Limit': HEADER('Requests a month', { type: 'integer' }),
        'X-Quota-Remaining': HEADER('Requests left this month', { type: 'integer' }),
        'Retry-After': HEADER('Seconds to wait before retrying', { type: 'integer', minimum: 1 }),
        'Idempotent-Replayed': HEADER('`true` when the answer replays an earlier request with the same Idempotency-Key', { type: 'string', enum: ['true'] }),
      },
      schemas,
    },
  };
}
