import { readFileSync } from 'node:fs';
import Koa from 'koa';

/** The floor of this stack: a bare Koa app answering a fixed 60-item body (the same bytes the api sends). */
const body = readFileSync(process.env.BODY_FILE ?? '', 'utf8');
const app = new Koa();
app.use((ctx) => {
  ctx.type = 'application/json';
  ctx.body = body;
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1');
server.keepAliveTimeout = 65_000;
process.once('SIGTERM', () => server.close(() => process.exit(0)));
