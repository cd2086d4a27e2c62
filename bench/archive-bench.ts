import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CompiledQuery, sql, type Insertable, type KyselyPlugin } from 'kysely';
import { createConnection, type Connection } from 'mysql2/promise';
import { compsOfListings, statsItemOf } from '@comps/shared/comps/listing-comps';
import type { ListingRow } from '@comps/shared/contract/listing';
import { createDb } from '@comps/shared/db/create-db';
import { migrateToLatest } from '@comps/shared/db/migrate';
import { newRunId, newTrackedSearchId, newWorkspaceId } from '@comps/shared/ids';
import { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import { parseSearchPage } from '@comps/shared/market/parse/search-page';
import { JOBS_MIGRATIONS } from '@comps/jobs/migrations';
import type { JobsDatabase, JobsDb, SoldArchiveTable } from '../services/jobs/src/db/database.js';
import { encodeStatsItem } from '../services/jobs/src/jobs/stats-item-column.js';
import { archiveFigures, listStatsItems } from '../services/jobs/src/tracked/archive-repository.js';
import { encodeSalesCursor } from '../services/jobs/src/tracked/sales-cursor.js';
import type { StoredQuery } from '../services/jobs/src/tracked/tracked-search-record.js';
import { insertTrackedSearch, setArchiveFigures } from '../services/jobs/src/tracked/tracked-search-repository.js';
import { archiveStats, listArchiveSales, type TrackedSearchDeps } from '../services/jobs/src/tracked/tracked-search-service.js';
import { FIXTURES_DIR } from '../test/helpers/fixtures.js';
import { log, median, resetBenchDatabase, runBench, verdict } from './bench-stack.js';

/**
 * `npm run bench:archive`: the sold archive at the size of issue 17 (a workspace with 100 tracked
 * searches of 1,000 sales a week for three years: 15.6 million rows), in a database of its own,
 * filled once and kept for the next runs. On one tracked search, through the service's own
 * functions: `stats` over 30 days, one year and the whole three years (weekly series), cold (the
 * buffer pool emptied of it first) and warm; the first page of sales and one two years deep; the
 * plan of the statistics' statement; the table's sizes. Goal: the statistics of one year well under
 * a second, taken as a warm median and a cold call each under 1 s; whether the warm median is within
 * half a second is printed too.
 *
 * The rows are what runs store: real sold pages of the marketplace (three saved US pages, 180
 * listings) as templates, each sale one of them with its own item id, sold date and price (log-normal
 * around its search's level, with a trend over the years and a December peak), classified 200 at a
 * time by the real comps (lots, accessories, parts, best offers, outliers as the pages have them),
 * its `stats_item` from the real encoder and its `item` the listing item's JSON (about 900 bytes,
 * full size).
 */
const SEARCHES = Number(process.env.BENCH_ARCHIVE_SEARCHES ?? '100');
const WEEKS = Number(process.env.BENCH_ARCHIVE_WEEKS ?? '156');
/** A smaller archive (a quick try) gets a database of its own: the full one, kept, takes most of an hour to fill. */
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? `mysql://root@127.0.0.1:3306/comps_bench_archive${SEARCHES === 100 && WEEKS === 156 ? '' : `_${SEARCHES}x${WEEKS}`}`;
const REFILL = process.env.BENCH_ARCHIVE_REFILL === '1';
const SALES_PER_WEEK = 1000;
const WARM_RUNS = 10;
/** A Sunday: the archive's weeks run Monday to Sunday and end here, whatever day the benchmark runs (a kept database stays valid). */
const LAST_DAY = '2026-11-22';
const DAY_MS = 86_400_000;
const FIRST_DAY_MS = Date.parse(`${LAST_DAY}T00:00:00Z`) - (WEEKS * 7 - 1) * DAY_MS;
const FIRST_DAY = isoDate(FIRST_DAY_MS);
/** Rows of one INSERT: five weeks of a search, about 6 MB of statement (max_allowed_packet is 16 MB). */
const ROWS_PER_INSERT = 5 * SALES_PER_WEEK;
/**
 * Weeks of one search filled before the next search's (a quarter): the part of its primary key that
 * a quarter's sales go into (items listed in the months before) fits the 128 MB buffer pool; the
 * same part of 100 searches at once would not, and every insert would wait for a read.
 */
const BLOCK_WEEKS = 13;
const PAGE_SIZE = 200;
const ITEM_ID_BASE = 200_000_000_000;
/** Days from listing to sale: most sell within weeks, a few after months (capped, so that item ids stay unique: see itemIdOf). */
const MEAN_LISTING_DAYS = 20;
const MAX_LISTING_DAYS = 365;
/** Sales from Monday to Sunday: weekends sell more. */
const WEEKDAY_WEIGHTS = [1, 1, 1, 1, 1.1, 1.3, 1.4];
/** The spread of one sale's price around its template's, scaled to its search (σ of the log). */
const PRICE_SPREAD = 0.15;
const TEMPLATE_PAGES = [
  { file: 'sold_us_scard_sony_headphones.html', keyword: 'sony headphones' },
  { file: 'sold_us_scard_vw_beetle.html', keyword: 'vw beetle' },
  { file: 'sold_us_scard_pokemon_card_bids.html', keyword: 'pokemon card' },
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const USD = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

interface SearchProfile {
  id: string;
  keyword: string;
  templates: ListingRow[];
  /** Its prices against its template page's. */
  priceScale: number;
  /** Its prices' change over a year (electronics lose value, cards gain some). */
  yearlyChange: number;
}

type ArchiveRow = Insertable<SoldArchiveTable>;

/** A string as a MariaDB literal (backslash escapes, the server's default). */
function literal(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}

const ARCHIVE_COLUMNS = 'tracked_search_id, item_id, workspace_id, sold_date, run_id, first_seen_at, counted, condition_group, stats_item, item';

/**
 * A row of a multi-row INSERT, written here rather than by Kysely and the driver: this process is
 * the fill's slower side, and their escaping of a statement's 50,000 values took half as long as the
 * server's insert of them.
 */
function valuesOf(row: ArchiveRow): string {
  const firstSeenAt = (row.firstSeenAt as Date).toISOString().slice(0, 23).replace('T', ' ');
  const conditionGroup = row.conditionGroup ? literal(row.conditionGroup) : 'null';
  return `(${literal(row.trackedSearchId)},${literal(row.itemId)},${literal(row.workspaceId)},'${row.soldDate}',${literal(row.runId)},'${firstSeenAt}',${row.counted},${conditionGroup},${literal(row.statsItem)},${literal(row.item)})`;
}

function isoDate(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** A small seeded generator (mulberry32): the same archive on every fill, and on a fill resumed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function standardNormal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function weekday(random: () => number): number {
  const total = WEEKDAY_WEIGHTS.reduce((sum, weight) => sum + weight, 0);
  let left = random() * total;
  for (const [day, weight] of WEEKDAY_WEIGHTS.entries()) {
    left -= weight;
    if (left < 0) return day;
  }
  return WEEKDAY_WEIGHTS.length - 1;
}

function listingAgeDays(random: () => number): number {
  return Math.min(MAX_LISTING_DAYS, Math.floor(-MEAN_LISTING_DAYS * Math.log(1 - random())));
}

/**
 * The marketplace numbers items as they are listed, so a week's sales have ids spread over the
 * months before it, and the archive's primary key takes them across that range, as it does from
 * real runs. The low digits (search, sold week modulo 100, sale) keep ids unique per search: two
 * sales of one search listed the same day were sold less than 100 weeks apart.
 */
function itemIdOf(searchIndex: number, week: number, sale: number, listedDay: number): string {
  return String(ITEM_ID_BASE + (listedDay + MAX_LISTING_DAYS) * 1e8 + searchIndex * 1e5 + (week % 100) * SALES_PER_WEEK + sale);
}

/** The marketplace's sold label of a date, as the saved pages write it. */
function soldDateText(time: number): string {
  const date = new Date(time);
  return `Sold  ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

function profilesOf(ids: string[]): SearchProfile[] {
  const pages = TEMPLATE_PAGES.map(({ file, keyword }) => ({ keyword, templates: parseSearchPage(readFileSync(path.join(FIXTURES_DIR, file), 'utf8'), 'market.com').items }));
  return ids.map((id, index) => {
    const random = seededRandom(index + 1);
    const page = pages[index % pages.length]!;
    return { id, keyword: page.keyword, templates: page.templates, priceScale: Math.exp((random() * 2 - 1) * Math.LN2), yearlyChange: random() * 0.4 - 0.25 };
  });
}

/**
 * One week of a search's sales as its daily runs store them: pages of 200 newest first, each
 * classified together by the comps (outliers are a page's), the sale's `stats_item` and `item`
 * made as run-handler's storePage makes them.
 */
function weekSales(search: SearchProfile, searchIndex: number, week: number, workspaceId: string): string[] {
  const random = seededRandom(searchIndex * 100_003 + week + 1);
  // One run a day, at the search's own hour, finds the day's sales the next day.
  const runIds = WEEKDAY_WEIGHTS.map(() => newRunId());
  const runHourMs = (searchIndex % 24) * 3_600_000;
  const listings: Array<{ row: ListingRow; day: number }> = [];
  for (let sale = 0; sale < SALES_PER_WEEK; sale += 1) {
    const template = search.templates[Math.floor(random() * search.templates.length)]!;
    const day = weekday(random);
    const time = FIRST_DAY_MS + (week * 7 + day) * DAY_MS;
    const years = (time - FIRST_DAY_MS) / (365 * DAY_MS);
    const december = 1 + 0.06 * Math.cos((2 * Math.PI * (time / DAY_MS - 350)) / 365.25);
    const factor = search.priceScale * (1 + search.yearlyChange) ** years * december * Math.exp(PRICE_SPREAD * standardNormal(random));
    const itemId = itemIdOf(searchIndex, week, sale, week * 7 + day - listingAgeDays(random));
    const price = template.price && { value: Math.round(template.price.value * factor * 100) / 100, currency: template.price.currency };
    // A range ("$4.49 to $8.49") stays as the page showed it; a single price is written anew.
    const priceText = price && template.priceText?.startsWith('$') && !template.priceText.includes(' to ') ? `$${USD.format(price.value)}` : template.priceText;
    listings.push({ day, row: { ...template, itemId, url: template.url.replace(template.itemId, itemId), soldDate: isoDate(time), soldDateText: soldDateText(time), price, priceText } });
  }
  listings.sort((a, b) => b.day - a.day);
  const sales: string[] = [];
  for (let start = 0; start < listings.length; start += PAGE_SIZE) {
    const page = listings.slice(start, start + PAGE_SIZE);
    const { items } = compsOfListings(page.map((listing) => listing.row), { keyword: search.keyword, site: 'market.com', basis: 'sold', include: [] });
    items.forEach((item, index) => {
      const { day } = page[index]!;
      sales.push(valuesOf({
        trackedSearchId: search.id,
        itemId: item.itemId,
        workspaceId,
        soldDate: item.soldDate!,
        runId: runIds[day]!,
        firstSeenAt: new Date(FIRST_DAY_MS + (week * 7 + day + 1) * DAY_MS + runHourMs),
        counted: item.comps.counted ? 1 : 0,
        conditionGroup: item.comps.condition,
        statsItem: encodeStatsItem(statsItemOf(item, item.comps)),
        item: JSON.stringify(item),
      }));
    });
  }
  return sales;
}

/**
 * Weeks `from` to `to` of one search in one transaction, on a connection of its own: a fill cut
 * short resumes at the first block a search lacks. The next statement is made while the server
 * inserts the previous one (a CPU each).
 */
async function fillBlock(connection: Connection, search: SearchProfile, searchIndex: number, weeks: { from: number; to: number }, workspaceId: string): Promise<void> {
  await connection.query('begin');
  let inFlight: Promise<unknown> = Promise.resolve();
  let batch: string[] = [];
  for (let week = weeks.from; week < weeks.to; week += 1) {
    batch.push(...weekSales(search, searchIndex, week, workspaceId));
    if (batch.length < ROWS_PER_INSERT && week < weeks.to - 1) continue;
    await inFlight;
    inFlight = connection.query(`insert into sold_archive (${ARCHIVE_COLUMNS}) values ${batch.join(',')}`);
    // Its failure is thrown where it is awaited; meanwhile it must not count as unhandled.
    inFlight.catch(() => undefined);
    batch = [];
  }
  await inFlight;
  await connection.query('commit');
}

async function createSearches(db: JobsDb): Promise<void> {
  const workspaceId = newWorkspaceId();
  for (let index = 0; index < SEARCHES; index += 1) {
    const keyword = TEMPLATE_PAGES[index % TEMPLATE_PAGES.length]!.keyword;
    const query: StoredQuery = { categoryId: '0', itemCondition: 'any', minPrice: null, maxPrice: null, buyingFormat: 'all', exactMatch: true, statsInclude: [] };
    await insertTrackedSearch(db, {
      id: newTrackedSearchId(), workspaceId, apiKeyId: null, apiKeyPrefix: null, name: `${keyword} ${index + 1}`, status: 'active', pausedReason: null, keyword, marketSite: 'market.com',
      query: JSON.stringify(query), schedule: 'daily', maxPagesPerRun: 5, nextRunAt: new Date(`${LAST_DAY}T12:00:00Z`), lastRunId: null, firstSoldDate: null, lastSoldDate: null,
      createdAt: new Date(FIRST_DAY_MS - DAY_MS),
    });
  }
}

function listSearches(db: JobsDb) {
  return db.selectFrom('trackedSearches').select(['id', 'workspaceId', 'archiveSales']).orderBy('id').execute();
}

/**
 * The weeks each search holds (a block of weeks is one transaction), read from the archive, or null
 * when the database holds another archive and must be filled anew.
 */
async function weeksFilled(db: JobsDb, searchIds: string[]): Promise<number[] | null> {
  if (searchIds.length !== SEARCHES) return null;
  const weeks: number[] = [];
  for (const id of searchIds) {
    const { sales, firstSoldDate } = await archiveFigures(db, id);
    if (sales % SALES_PER_WEEK !== 0 || sales > WEEKS * SALES_PER_WEEK || (sales > 0 && firstSoldDate !== FIRST_DAY)) return null;
    weeks.push(sales / SALES_PER_WEEK);
  }
  return weeks;
}

/**
 * The archive at its full size: kept from an earlier run when the searches' figures say it is whole
 * (they are set once a fill ends), else filled, or its fill resumed.
 */
async function fillArchive(db: JobsDb): Promise<{ db: JobsDb; searchIds: string[]; workspaceId: string }> {
  const expected = SEARCHES * WEEKS * SALES_PER_WEEK;
  const salesOf = (searches: Array<{ archiveSales: number }>) => searches.reduce((sum, search) => sum + search.archiveSales, 0);
  let searches = await listSearches(db);
  const kept = !REFILL && searches.length === SEARCHES && salesOf(searches) === expected;
  if (!kept) {
    let filled = REFILL ? null : await weeksFilled(db, searches.map((search) => search.id));
    if (filled === null) {
      await db.destroy();
      await resetBenchDatabase(DATABASE_URL);
      db = createDb<JobsDatabase>({ url: DATABASE_URL, connectionLimit: 4, isolation: 'read committed' });
      await createSearches(db);
      searches = await listSearches(db);
      filled = searches.map(() => 0);
    }
    const rowsBefore = filled.reduce((sum, weeks) => sum + weeks, 0) * SALES_PER_WEEK;
    log(`filling: ${SEARCHES} tracked searches × ${SALES_PER_WEEK} sales a week × ${WEEKS} weeks (${FIRST_DAY} to ${LAST_DAY}) = ${expected.toLocaleString('en-US')} rows${rowsBefore > 0 ? `, resumed with ${rowsBefore.toLocaleString('en-US')} there` : ''}`);
    const profiles = profilesOf(searches.map((search) => search.id));
    // The statements carry their values (valuesOf): nothing to look for placeholders in, 6 MB at a time.
    const connection = await createConnection({ uri: DATABASE_URL, queryFormat: (statement: string) => statement });
    const started = performance.now();
    try {
      for (let from = 0; from < WEEKS; from += BLOCK_WEEKS) {
        const to = Math.min(WEEKS, from + BLOCK_WEEKS);
        for (const [index, search] of profiles.entries()) {
          if (filled[index]! < to) await fillBlock(connection, search, index, { from: Math.max(from, filled[index]!), to }, searches[0]!.workspaceId);
        }
        const seconds = (performance.now() - started) / 1000;
        const added = SEARCHES * to * SALES_PER_WEEK - rowsBefore;
        log(`  weeks 1 to ${to}: ${((SEARCHES * to * SALES_PER_WEEK) / 1e6).toFixed(2)} M rows, ${seconds.toFixed(0)} s, ${Math.round(Math.max(0, added) / seconds).toLocaleString('en-US')} rows/s`);
      }
    } finally {
      await connection.end();
    }
    log(`fill: ${(expected - rowsBefore).toLocaleString('en-US')} rows in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
    await sql`analyze table sold_archive`.execute(db);
    // The searches' figures as the purge sets them, read from each one's date index: a kept archive is known by them.
    for (const search of searches) await setArchiveFigures(db, search.id, await archiveFigures(db, search.id));
    searches = await listSearches(db);
    if (salesOf(searches) !== expected) throw new Error(`the archive holds ${salesOf(searches)} sales, not ${expected}`);
  }
  log(`archive: ${salesOf(searches).toLocaleString('en-US')} rows${kept ? ', kept from an earlier run (BENCH_ARCHIVE_REFILL=1 fills it anew)' : ''}`);
  return { db, searchIds: searches.map((search) => search.id), workspaceId: searches[0]!.workspaceId };
}

async function statusCounter(db: JobsDb, name: string): Promise<number> {
  const { rows } = await sql<{ value: string }>`select variable_value as value from information_schema.global_status where variable_name = ${name}`.execute(db);
  return Number(rows[0]?.value ?? 0);
}

/**
 * Empties the buffer pool of what the last calls read, so that the next call reads from disk as the
 * first request for a search does. A scan alone would not: InnoDB keeps the pages a scan reads in
 * the old part of its LRU list (3/8 of the pool) and makes them young only when read again more than
 * a second later (innodb_old_blocks_time). So other searches' index ranges, in groups that fit that
 * old part, are read twice 1.1 s apart, until they have taken 1.5 times the pool.
 */
async function evictBufferPool(db: JobsDb, groups: string[][]): Promise<void> {
  for (const group of groups) {
    for (let pass = 0; pass < 2; pass += 1) {
      for (const id of group) await sql`select count(*) from sold_archive force index (sold_archive_by_date) where tracked_search_id = ${id}`.execute(db);
      if (pass === 0) await sleep(1100);
    }
  }
}

/** The searches evictBufferPool reads, grouped. */
function evictionGroups(otherSearchIds: string[], poolMb: number, indexPerSearchMb: number): string[][] {
  const searches = otherSearchIds.slice(0, Math.ceil((1.5 * poolMb) / indexPerSearchMb));
  const perGroup = Math.max(1, Math.floor((poolMb / 4) / indexPerSearchMb));
  return Array.from({ length: Math.ceil(searches.length / perGroup) }, (_, index) => searches.slice(index * perGroup, (index + 1) * perGroup));
}

interface Timing {
  coldMs: number;
  /** Pages the cold call read from disk (the server's counter: other databases' reads count too). */
  coldDiskPages: number;
  warmMs: number[];
  /** CPU of this process during each warm call (its garbage collector's threads included): less moved by the machine's other load than the wall time. */
  warmCpuMs: number[];
}

function cpuNowMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function timed(db: JobsDb, evictors: string[][], call: () => Promise<unknown>): Promise<Timing> {
  await evictBufferPool(db, evictors);
  const readsBefore = await statusCounter(db, 'INNODB_BUFFER_POOL_READS');
  const coldStarted = performance.now();
  await call();
  const coldMs = performance.now() - coldStarted;
  const coldDiskPages = (await statusCounter(db, 'INNODB_BUFFER_POOL_READS')) - readsBefore;
  const warmMs: number[] = [];
  const warmCpuMs: number[] = [];
  for (let run = 0; run < WARM_RUNS; run += 1) {
    const started = performance.now();
    const cpuStarted = cpuNowMs();
    await call();
    warmMs.push(performance.now() - started);
    warmCpuMs.push(cpuNowMs() - cpuStarted);
  }
  return { coldMs, coldDiskPages, warmMs, warmCpuMs };
}

function describe(label: string, timing: Timing, detail: string): void {
  const sorted = [...timing.warmMs].sort((a, b) => a - b);
  log(`  ${label.padEnd(32)} cold ${timing.coldMs.toFixed(0).padStart(5)} ms (${timing.coldDiskPages} pages from disk); warm median ${median(timing.warmMs).toFixed(1).padStart(6)} ms, max ${sorted.at(-1)!.toFixed(1)} ms, CPU ${median(timing.warmCpuMs).toFixed(0)} ms (${WARM_RUNS} runs)  ${detail}`);
}

/** The statement `run` sends through `db`, compiled as Kysely sends it: the plan shown is the repository's own statement's. */
async function statementOf(db: JobsDb, run: (db: JobsDb) => Promise<unknown>): Promise<CompiledQuery> {
  let statement: CompiledQuery | undefined;
  const recorder: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      statement = db.getExecutor().compileQuery(node, queryId);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  await run(db.withPlugin(recorder));
  return statement!;
}

async function sizes(db: JobsDb): Promise<void> {
  const rowsInTable = SEARCHES * WEEKS * SALES_PER_WEEK;
  const perMillion = (bytes: number) => `${((bytes / rowsInTable) * 1e6 / 2 ** 20).toFixed(0)} MB per million rows`;
  const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GB`;
  const { rows: [table] } = await sql<{ dataLength: number; indexLength: number; dataFree: number }>`
    select data_length as dataLength, index_length as indexLength, data_free as dataFree
    from information_schema.tables where table_schema = database() and table_name = 'sold_archive'`.execute(db);
  const { rows: [file] } = await sql<{ fileSize: number }>`
    select file_size as fileSize from information_schema.innodb_sys_tablespaces where name = concat(database(), '/sold_archive')`.execute(db);
  const { rows: indexes } = await sql<{ indexName: string; pages: number; leafPages: number }>`
    select index_name as indexName, max(case stat_name when 'size' then stat_value end) as pages, max(case stat_name when 'n_leaf_pages' then stat_value end) as leafPages
    from mysql.innodb_index_stats where database_name = database() and table_name = 'sold_archive' group by index_name`.execute(db);
  log(`sizes (information_schema, after ANALYZE): ${rowsInTable.toLocaleString('en-US')} rows; data (the primary key's tree, rows inline) ${gb(Number(table!.dataLength))}, ${perMillion(Number(table!.dataLength))}; index ${gb(Number(table!.indexLength))}, ${perMillion(Number(table!.indexLength))}; file ${gb(Number(file?.fileSize ?? 0))} (${gb(Number(table!.dataFree))} free in it)`);
  for (const index of indexes) log(`  ${index.indexName}: ${gb(Number(index.pages) * 16_384)} (${Number(index.leafPages).toLocaleString('en-US')} leaf pages of 16 KB), ${perMillion(Number(index.pages) * 16_384)}`);
}

async function main(): Promise<void> {
  await migrateToLatest(DATABASE_URL, JOBS_MIGRATIONS);
  const { db, searchIds, workspaceId } = await fillArchive(createDb<JobsDatabase>({ url: DATABASE_URL, connectionLimit: 4, isolation: 'read committed' }));
  try {
    const { rows: [server] } = await sql<{ version: string; pool: number }>`select version() as version, @@innodb_buffer_pool_size as pool`.execute(db);
    const poolMb = Number(server!.pool) / 2 ** 20;
    log(`MariaDB ${server!.version}, buffer pool ${poolMb} MB; ${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')} (other work on the machine slows the wall times)`);
    await sizes(db);

    const measured = searchIds[Math.floor(searchIds.length / 2)]!;
    const others = searchIds.filter((id) => id !== measured);
    const indexPerSearchMb = await indexMbPerSearch(db);
    const evictors = evictionGroups(others, poolMb, indexPerSearchMb);
    // A cache that keeps nothing (its entries expire as they are made): every call is measured computing.
    const deps: TrackedSearchDeps = { db, now: () => new Date(`${LAST_DAY}T23:00:00Z`), random: Math.random, wake: () => undefined, statsCache: new ExpiringMap(0, 1), refusalFor: () => null };
    const daysBack = (days: number) => isoDate(Date.parse(`${LAST_DAY}T00:00:00Z`) - days * DAY_MS);
    const year = { from: daysBack(364), to: LAST_DAY };
    const { keyword } = await db.selectFrom('trackedSearches').select('keyword').where('id', '=', measured).executeTakeFirstOrThrow();
    log(`one tracked search (${measured}, "${keyword}", ${(WEEKS * SALES_PER_WEEK).toLocaleString('en-US')} sales), through the service's functions; cold: after reading ${evictors.flat().length} other searches' index twice (${(evictors.flat().length * indexPerSearchMb).toFixed(0)} MB)`);

    const statsOver = async (label: string, range: { from?: string; to?: string }) => {
      let result: Awaited<ReturnType<typeof archiveStats>> | undefined;
      const timing = await timed(db, evictors, async () => (result = await archiveStats(deps, workspaceId, measured, { ...range, interval: 'week' })));
      describe(label, timing, `${result!.stats.listings.toLocaleString('en-US')} sales, ${result!.stats.counted.toLocaleString('en-US')} counted, ${result!.series.length} weeks, median ${result!.stats.unitPrice?.median} ${result!.stats.currency}`);
      return timing;
    };
    const days30 = await statsOver('stats, 30 days', { from: daysBack(29), to: LAST_DAY });
    const oneYear = await statsOver('stats, one year', year);
    const threeYears = await statsOver('stats, all (three years)', {});

    // Where a year goes: the database's part (the statement and the driver's rows), and the rest (decoding, the statistics, the series).
    const yearRows = await timed(db, evictors, () => listStatsItems(db, measured, year));
    describe('  of which the rows', yearRows, `listStatsItems alone; the rest of a warm call (decoding, statistics, series): ${(median(oneYear.warmMs) - median(yearRows.warmMs)).toFixed(0)} ms`);

    const firstPage = await timed(db, evictors, () => listArchiveSales(deps, workspaceId, measured, { limit: 200 }));
    describe('sales, first page (200)', firstPage, 'newest first');
    // Two years back (two thirds of a shorter archive).
    const deepDate = daysBack(Math.min(730, Math.floor((WEEKS * 7 * 2) / 3)));
    const { rows: [deepest] } = await sql<{ itemId: string; newer: number }>`
      select max(item_id) as itemId, (select count(*) from sold_archive where tracked_search_id = ${measured} and sold_date > ${deepDate}) as newer
      from sold_archive where tracked_search_id = ${measured} and sold_date = ${deepDate}`.execute(db);
    const cursor = encodeSalesCursor({ soldDate: deepDate, itemId: deepest!.itemId });
    const deepPage = await timed(db, evictors, () => listArchiveSales(deps, workspaceId, measured, { limit: 200, cursor }));
    describe('sales, a page deep in the cursor', deepPage, `the page after ${deepDate}, about page ${Math.ceil(Number(deepest!.newer) / 200) + 1}`);

    for (const [label, range] of [['one year', year], ['all', {}]] as const) {
      const statement = await statementOf(db, (recording) => listStatsItems(recording, measured, range));
      const { rows: plan } = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]));
      log(`EXPLAIN of the statistics' statement, ${label}: ${statement.sql}`);
      for (const step of plan) log(`  ${JSON.stringify(step)}`);
      const { rows: [analyzed] } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`analyze format=json ${statement.sql}`, [...statement.parameters]));
      const { query_block: block } = JSON.parse(Object.values(analyzed!)[0]!) as { query_block: { r_total_time_ms: number; nested_loop: [{ table: { r_rows: number; r_engine_stats: { pages_accessed: number } } }] } };
      const { table } = block.nested_loop[0];
      log(`  ANALYZE (warm): the server's own time ${block.r_total_time_ms.toFixed(1)} ms for ${table.r_rows.toLocaleString('en-US')} index entries in ${table.r_engine_stats.pages_accessed} pages`);
    }

    const yearWarmMs = median(oneYear.warmMs);
    log(`goal: stats over one year of one tracked search well under a second (warm median and cold call each under 1 s): ${yearWarmMs.toFixed(0)} ms warm, ${oneYear.coldMs.toFixed(0)} ms cold — ${verdict(yearWarmMs < 1000 && oneYear.coldMs < 1000)}; warm median within half a second — ${verdict(yearWarmMs <= 500)}`);
    log(`  (30 days: ${median(days30.warmMs).toFixed(0)} ms warm, ${days30.coldMs.toFixed(0)} ms cold; three years: ${median(threeYears.warmMs).toFixed(0)} ms warm, ${threeYears.coldMs.toFixed(0)} ms cold; load average now ${os.loadavg()[0]!.toFixed(1)})`);
  } finally {
    await db.destroy();
  }
}

/** The date index's size per tracked search, in MB (the eviction reads enough of it to fill the pool). */
async function indexMbPerSearch(db: JobsDb): Promise<number> {
  const { rows: [index] } = await sql<{ pages: number }>`
    select stat_value as pages from mysql.innodb_index_stats
    where database_name = database() and table_name = 'sold_archive' and index_name = 'sold_archive_by_date' and stat_name = 'size'`.execute(db);
  return (Number(index!.pages) * 16_384) / 2 ** 20 / SEARCHES;
}

runBench(main);
