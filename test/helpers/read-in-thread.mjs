// Reads the saved results page named on the command line in a parse thread of this process, started ahead for
// pages expected, and prints whether the thread became ready and the page's rows: run by node with the options under test.
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { PageBytes } from '@comps/shared/market/fetch/page-bytes';
import { ParseThreads } from '@comps/shared/market/parse-threads';

const threads = new ParseThreads({
  count: 1,
  logger: pino({ level: 'error' }),
  callingThread: { read: () => Promise.reject(new Error('read on the calling thread')) },
});
threads.expect(20);
const started = performance.now();
while (threads.ready === 0) {
  if (threads.running === 0 || performance.now() - started > 30_000) {
    process.stdout.write(JSON.stringify({ ready: false, running: threads.running }));
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
}
const body = readFileSync(process.argv[2]);
const page = await threads.read({ status: 200, body: PageBytes.of([body]), url: 'https://www.market.test/sch/i.html', retryAfterSeconds: null, elapsedMs: 1 }, 'market.com');
process.stdout.write(JSON.stringify({ ready: true, rows: page.items.length }));
await threads.close();
