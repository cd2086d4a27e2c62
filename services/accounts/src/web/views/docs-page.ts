import { html } from '../html.js';
import { layout, type PageFrame } from './layout.js';

/**
 * The API reference: Swagger UI, served by the stack itself, renders the API's own
 * GET /v1/openapi.json in the page. Without JavaScript the page says where the document is.
 */
export function docsPage(frame: Omit<PageFrame, 'title' | 'current'>): string {
  return layout(
    { ...frame, title: 'API reference', current: 'docs', styles: ['swagger-ui.css'], scripts: ['swagger-ui-bundle.js', 'docs.js'] },
    html`<h1>API reference</h1>
    <p class="lead">Every endpoint, its parameters, answers and an example. Authenticate with <code>Authorization: Bearer sk_…</code>, a key from <a href="/dashboard/keys">API keys</a>. The machine-readable document is <a href="/v1/openapi.json"><code>/v1/openapi.json</code></a> (OpenAPI 3.1).</p>
    <div id="api-reference" aria-live="polite">
      <noscript><p class="panel">The interactive reference needs JavaScript. The document it shows is <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>
    </div>`,
  );
}
