import t from 'tap';
import { launchBrowser, openPage, saveScreenshot } from '../../helpers/browser.js';
import { request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

const stack = await startTestStack(t);
const browser = await launchBrowser(t);

t.test('/docs renders the API\'s own document: every public endpoint, the bearer scheme, an example each', async (t) => {
  const document = (await request(stack.baseUrl, '/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
  t.ok(documented.length >= 9, `the document has ${documented.length} operations`);

  const { page, problems } = await openPage(browser, stack.baseUrl);
  const outside: string[] = [];
  page.on('request', (sent) => {
    if (!sent.url().startsWith(stack.baseUrl) && !sent.url().startsWith('data:')) outside.push(sent.url());
  });
  const answer = await page.goto('/docs');
  t.equal(answer?.status(), 200);
  await page.locator('.opblock').first().waitFor();
  const methods = await page.locator('.opblock-summary .opblock-summary-method').allTextContents();
  const paths = await page.locator('.opblock-summary .opblock-summary-path').allTextContents();
  const listed = methods.map((method, index) => `${method.trim()} ${paths[index]!.replace(/\u200b/g, '').trim()}`);
  t.strictSame([...listed].sort(), [...documented].sort(), 'the reference lists exactly the document\'s endpoints');
  await saveScreenshot(page, 'docs');

  await page.getByRole('button', { name: /Authorize/ }).first().click();
  t.ok(await page.getByText('bearerAuth').first().isVisible(), 'the bearer scheme is shown');
  t.ok(await page.getByText(/http, Bearer/).first().isVisible(), 'as HTTP bearer');
  await page.locator('.modal-ux').getByRole('button', { name: 'Close' }).click();

  const search = page.locator('#operations-Listings-searchListings');
  await search.locator('.opblock-summary').click();
  await search.locator('.responses-wrapper').waitFor();
  t.match(await search.locator('.responses-wrapper').textContent(), /Nintendo Switch OLED Model 64GB/, 'the search shows its example answer');
  t.match(await search.locator('.parameters').textContent(), /Example\s*:\s*nintendo switch oled/, 'and its example keyword');

  t.strictSame(outside, [], 'nothing is loaded from outside the stack (no CDN)');
  t.strictSame(problems, [], 'no console errors (no Content-Security-Policy violation)');
});

t.test('/docs and its files come from the stack with the security headers', async (t) => {
  const page = await fetch(`${stack.baseUrl}/docs`);
  const html = await page.text();
  t.match(page.headers.get('content-security-policy'), /script-src 'self';/, 'scripts only from the stack, none inline');
  t.notMatch(page.headers.get('content-security-policy'), /script-src[^;]*unsafe-inline/);
  t.match(page.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  t.notMatch(html, /<script>(?!<\/script>)|<script(?![^>]*\ssrc=)[^>]*>/, 'no inline script in the page');
  for (const [, src] of html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)) {
    const asset = await fetch(`${stack.baseUrl}${src!.replace(/&amp;/g, '&')}`, { headers: { 'accept-encoding': 'gzip' } });
    t.equal(asset.status, 200, `${src} is served`);
    t.match(asset.headers.get('cache-control'), /immutable/, `${src} is cached for good (its URL carries its version)`);
    await asset.arrayBuffer();
  }
});
