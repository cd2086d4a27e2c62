import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compsOfItem } from '@comps/shared/comps/listing-comps';
import type { ListingQuery } from '@comps/shared/contract/listing';
import { LIMITS } from '@comps/shared/contract/limits';
import { marketSiteSchema, type MarketSite } from '@comps/shared/contract/market-sites';
import { AppError } from '@comps/shared/errors/app-error';
import { buildErrorBody, toAppError } from '@comps/shared/http/error-response';
import { newRequestId } from '@comps/shared/ids';
import { buildListingCollection } from '@comps/shared/market/build-collection';
import { interpretItemAnswer, interpretSearchAnswer } from '@comps/shared/market/interpret-answer';

const USAGE = `usage: npm run --silent market:parse -- FILE [--site market.com] [--kind search|item] [--sold true|false] [--exact-match true|false] [--count N]

  Parses a saved marketplace page and prints the listing collection (or the item details) as JSON,
  or the contract's error object when the page is a bot check, a sign-in wall or not a page of that
  kind. Both exit 0; bad arguments or an unreadable file exit 2.

  --site         the site the page is from (default market.com)
  --kind         search or item (default: item when the page is an item page, else search)
  --sold         keep only rows with a sold marker (default: true when the page has any)
  --exact-match  leave out rows below the "fewer words" divider (default true)
  --count        at most this many items, 1 to ${LIMITS.count.max} (default ${LIMITS.count.max}: the whole page)`;

class UsageError extends Error {}

function booleanOption(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new UsageError(`--${name} must be true or false`);
  return value === 'true';
}

function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      site: { type: 'string' },
      kind: { type: 'string' },
      sold: { type: 'string' },
      'exact-match': { type: 'string' },
      count: { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'give exactly one FILE' : 'FILE is required');
  const site = marketSiteSchema.safeParse(values.site ?? 'market.com');
  if (!site.success) throw new UsageError(`--site must be one of ${marketSiteSchema.options.join(', ')}`);
  if (values.kind !== undefined && values.kind !== 'search' && values.kind !== 'item') throw new UsageError('--kind must be search or item');
  const count = values.count === undefined ? LIMITS.count.max : Number(values.count);
  if (!Number.isInteger(count) || count < LIMITS.count.min || count > LIMITS.count.max || !/^\d+$/.test(values.count ?? '200')) {
    throw new UsageError(`--count must be an integer from ${LIMITS.count.min} to ${LIMITS.count.max}`);
  }
  return {
    file: positionals[0]!,
    site: site.data as MarketSite,
    kind: values.kind as 'search' | 'item' | undefined,
    sold: booleanOption(values.sold, 'sold'),
    exactMatch: booleanOption(values['exact-match'], 'exact-match') ?? true,
    count,
  };
}

function parsePage(html: string, file: string, options: ReturnType<typeof parseCommandLine>): unknown {
  const answer = { status: 200, body: html, url: `file://${path.resolve(file)}`, retryAfterSeconds: null };
  const requestId = newRequestId();
  const source = { marketSite: options.site, fetchedAt: new Date().toISOString(), upstreamMs: 0 };
  const kind = options.kind ?? (/class="?x-item-title/.test(html) ? 'item' : 'search');
  if (kind === 'item') {
    const item = interpretItemAnswer(answer, options.site, null);
    return { ...item, comps: compsOfItem(item, options.site), marketSite: options.site, source, requestId };
  }
  const page = interpretSearchAnswer(answer, options.site);
  const query: ListingQuery = {
    keyword: null,
    marketSite: options.site,
    categoryId: '0',
    page: 1,
    count: options.count,
    sold: options.sold ?? page.items.some((item) => item.sold),
    itemCondition: 'any',
    sortOrder: 'endedRecently',
    minPrice: null,
    maxPrice: null,
    buyingFormat: 'all',
    exactMatch: options.exactMatch,
    statsInclude: [],
  };
  return buildListingCollection(page, query, source, requestId);
}

async function main(argv: string[]): Promise<number> {
  let options: ReturnType<typeof parseCommandLine>;
  try {
    options = parseCommandLine(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  let html: string;
  try {
    html = await readFile(options.file, 'utf8');
  } catch (error) {
    process.stderr.write(`cannot read ${options.file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  try {
    process.stdout.write(`${JSON.stringify(parsePage(html, options.file, options), null, 2)}\n`);
  } catch (error) {
    const appError = error instanceof AppError ? error : toAppError(error);
    process.stdout.write(`${JSON.stringify(buildErrorBody(appError, newRequestId()), null, 2)}\n`);
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
