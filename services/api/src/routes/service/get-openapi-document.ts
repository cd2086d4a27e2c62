import { definePublicRoute, type RouteDefinition } from '../../http/route-definition.js';
import { buildOpenApiDocument } from '../../openapi/openapi-document.js';
import { OPENAPI_EXAMPLE } from '../examples.js';

const DEFINITION = {
  method: 'GET',
  path: '/v1/openapi.json',
  operationId: 'getOpenApiDocument',
  summary: 'This document',
  tag: 'Service',
  success: { status: 200, schema: null, description: 'The OpenAPI 3.1 document' },
  example: OPENAPI_EXAMPLE,
} as const;

/** `GET /v1/openapi.json`, no key: the document of every route, itself included, built once from their definitions. */
export function getOpenApiDocumentRoute(routes: RouteDefinition[]) {
  let body = '';
  const route = definePublicRoute({ ...DEFINITION, handle: () => ({ kind: 'json', status: 200, body }) });
  body = JSON.stringify(buildOpenApiDocument([...routes, route]));
  return route;
}
