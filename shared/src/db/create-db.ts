import { CamelCasePlugin, Kysely, MysqlDialect } from 'kysely';
import { createPool, type PoolOptions } from 'mysql2';
export interface DbOptions {
  url: string;
  connectionLimit?: number;
  /**
   * The default isolation of every connection. READ COMMITTED takes no gap locks, so short
   * transactions that insert what they just looked for do not deadlock; set once per connection,
   * it costs no round trip per transaction.
   */
  isolation?: 'read committed';
}

function poolOptions({ url, connectionLimit = 10 }: DbOptions): PoolOptions {
  return {
    uri: url,
    connectionLimit,
    // Dates in and out are UTC whatever the server's zone.
    timezone: 'Z',
    dateStrings: ['DATE'],
    // An outage must fail a request quickly, not hang it.
    connectTimeout: 3000,
    enableKeepAlive: true,
    supportBigNumbers: true,
    decimalNumbers: true,
  };
}

/** A pool for a service's tables, typed by its schema (`createDb<JobsDatabase>`). */
export function createDb<Schema>(options: DbOptions): Kysely<Schema> {
  const pool = createPool(poolOptions(options));
  if (options.isolation === 'read committed') {
    pool.on('connection', (connection) => {
      // Commands on a connection run in order: this runs before the connection's first query.
      connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    });
  }
  return new Kysely<Schema>({ dialect: new MysqlDialect({ pool }), plugins: [new CamelCasePlugin()] });
}

/** A connection without the schema's types or naming plugin, for migrations and database creation. */
export function createRawDb(options: DbOptions): Kysely<any> {
  return new Kysely<any>({ dialect: new MysqlDialect({ pool: createPool(poolOptions(options)) }) });
}

/** Splits `mysql://…/name` into the server URL and the database name. */
export function splitDatabaseUrl(url: string): { serverUrl: string; database: string } {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  parsed.pathname = '/';
  return { serverUrl: parsed.toString(), database };
}
