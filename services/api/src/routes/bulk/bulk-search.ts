import { bulkKeywordQuery, bulkSearchBodyObject, bulkSearchBodySchema, type BulkSearchBody } from '@comps/shared/contract/bulk-search';
import { defineRoute } from '../../http/route-definition.js';
import { BULK_EXAMPLE } from '../examples.js';
import { BULK_PATH, runBulkSearch, type BulkSearchDeps } from './run-bulk-search.js';

/** `POST /api/bulk-search`: 1 to 20 keyword searches in one call, streamed as server-sent events. */
export function bulkSearchRoute(deps: BulkSearchDeps) {
  return defineRoute<undefined, undefined, BulkSearchBody>({
    method: 'POST',
    path: BULK_PATH,
    operationId: 'bulkSearch',
    summary: '1 to 20 keyword searches in one call, streamed as server-sent events',
    description:
      "Every bad body, a missing key and a rate limit already reached answer with the JSON error before any stream starts. Otherwise `200 text/event-stream`: `progress` at the start and after each keyword, one `result` or `error` per keyword (each with its own `requestId`), `complete` last; every event has an `id:` and JSON `data:`, and a `: keep-alive` comment goes out at least every 15 seconds. Each successful keyword is charged one request, once its `result` event was handed to the connection; keywords run concurrently up to the workspace's concurrency and count against its rate (waiting for the next window when it comes within a minute). A caller that disconnects stops the search: keywords not started never start, those in flight are charged nothing.",
    tag: 'Listings',
    body: { schema: bulkSearchBodySchema, fields: bulkSearchBodyObject, message: 'Invalid request body' },
    market: 'work',
    facts: { from: 'body', searchText: 'keywords', site: true },
    success: { status: 200, contentType: 'text/event-stream', description: 'The event stream' },
    example: BULK_EXAMPLE,
    handle: async (request) => {
      // A closed data gate or a site not enabled is one answer, not an error event per keyword.
      const refusal = deps.meter.refusalFor({ kind: 'search', query: bulkKeywordQuery(request.body, request.body.keywords[0]!) });
      if (refusal) throw refusal;
      return {
        kind: 'stream',
        status: 200,
        contentType: 'text/event-stream; charset=utf-8',
        // Proxies must neither buffer nor transform the stream.
        headers: { 'Cache-Control': 'no-store, no-transform', 'X-Accel-Buffering': 'no' },
        ownEntries: true,
        write: (out) => runBulkSearch(deps, { principal: request.principal, body: request.body, signal: request.signal }, out),
      };
    },
  });
}
