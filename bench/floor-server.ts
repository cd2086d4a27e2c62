import { readFileSync } from 'node:fs';
import Koa from 'koa';
import { Agent, request } from 'undici';
import { bareTokenize } from './bare-tokenize.js';

/**
 * The work floor of a charged search: fetch the same simulator page the api fetches, tokenize it
 * (the least any reader of it does), and answer a body of the same size as the api's. What the
 * stack does beyond this (authentication, limits, the ledger, parsing into items, history) is its
 * overhead.
 */
const body = readFileSync(process.env.BODY_FILE ?? '', 'utf8');
const pageUrl = process.env.PAGE_URL ?? '';
const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
const app = new Koa();
app.use(async (ctx) => {
  const page = await request(pageUrl, { dispatcher: agent, headers: { 'accept-encoding': 'gzip, deflate, br' } });
  bareTokenize(await page.body.text());
  ctx.type = 'application/json';
  ctx.body = body;
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1');
server.keepAliveTimeout = 65_000;
process.once('SIGTERM', () => server.close(() => process.exit(0)));
