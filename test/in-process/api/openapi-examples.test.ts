import t from 'tap';
import type { z } from 'zod';
import { bulkCompleteEventSchema, bulkErrorEventSchema, bulkProgressEventSchema, bulkResultEventSchema } from '@comps/shared/contract/bulk-events';
import { apiRoutes, type ApiDeps } from '../../../services/api/src/http/create-app.js';
import type { ApiKeyRoute } from '../../../services/api/src/http/route-definition.js';
import { buildOpenApiDocument } from '../../../services/api/src/openapi/openapi-document.js';
import { buildCapabilities } from '../../../services/api/src/routes/service/get-capabilities.js';

// Fast, in-process: every route's example is a real call of it and a real answer, as the schemas say.
// The definitions are only read here (no handler runs): their collaborators are not needed.
const ROUTES = apiRoutes({ capabilities: buildCapabilities({ dataGate: { sold: 'open', active: 'open', item: 'open' }, enabledSites: ['market.com'] }) } as ApiDeps);

for (const operation of ROUTES) {
  t.test(`${operation.method} ${operation.path}`, async (t) => {
    const { example } = operation;
    const success = operation.success.schema;
    if (success) {
      const parsed = success.safeParse(example.response);
      t.ok(parsed.success, `the example answer is a valid success body: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    } else if (operation.success.contentType?.startsWith('text/csv')) {
      t.match(example.response, /^(page|firstSeenAt),itemId,title,url,soldDate,/, 'the example CSV starts with the header row');
    } else if (operation.success.contentType?.startsWith('text/event-stream')) {
      const schemas: Record<string, z.ZodType> = { progress: bulkProgressEventSchema, result: bulkResultEventSchema, error: bulkErrorEventSchema, complete: bulkCompleteEventSchema };
      const events = String(example.response).trim().split('\n\n').map((block) => Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)])));
      events.forEach((event, index) => {
        t.equal(event.id, String(index + 1), `event ${index + 1} has its sequence number`);
        t.ok(schemas[event.event!]?.safeParse(JSON.parse(event.data!)).success, `event ${index + 1} is a valid ${event.event}`);
      });
      t.equal(events.at(-1)?.event, 'complete', 'the stream ends with complete');
    } else {
      t.type(example.response, 'object', 'the example answer is a JSON object');
    }
    const asQuery = (values: Record<string, unknown> = {}) => Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)]));
    const inputs: Partial<ApiKeyRoute> = operation.access === 'apiKey' ? operation : {};
    const checks: Array<[string, z.ZodType | undefined, unknown]> = [
      ['query', inputs.query?.schema, asQuery(example.request?.query)],
      ['path parameters', inputs.params?.schema, example.request?.path ?? {}],
      ['body', inputs.body?.schema, example.request?.body],
    ];
    for (const [part, schema, value] of checks) {
      if (!schema) {
        t.equal(value === undefined || Object.keys(value as object).length === 0, true, `no example ${part} where the operation takes none`);
        continue;
      }
      const parsed = schema.safeParse(value);
      t.ok(parsed.success, `the example ${part} is valid: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    }
  });
}

t.test('the document carries each example: answers, parameters and bodies', async (t) => {
  const document = buildOpenApiDocument(ROUTES) as {
    paths: Record<string, Record<string, { parameters: Array<{ name?: string; example?: unknown }>; requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>>;
  };
  for (const operation of ROUTES) {
    const documented = document.paths[operation.path]![operation.method.toLowerCase()]!;
    const status = String(operation.success.status);
    const content = Object.values(documented.responses[status]!.content!)[0]!;
    t.strictSame(content.example, operation.example.response, `${operation.operationId}: the ${status} answer's example`);
    for (const [name, value] of Object.entries({ ...operation.example.request?.query, ...operation.example.request?.path })) {
      t.equal(documented.parameters.find((parameter) => parameter.name === name)?.example, value, `${operation.operationId}: parameter ${name}'s example`);
    }
    if (operation.example.request?.body) t.strictSame(documented.requestBody!.content['application/json']!.example, operation.example.request.body, `${operation.operationId}: the body's example`);
  }
});
