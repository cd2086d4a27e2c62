import { CamelCasePlugin, Kysely, MysqlDialect } from 'kysely';
import { createPool, type PoolOptions } from 'mysql2';
import type { Database } from './database.js';

export type Db = Kysely<Database>;

export interface DbOptions {
  url: string;
  connectionLimit?: number;
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

export function createDb(options: DbOptions): Db {
  return new Kysely<Database>({
    dialect: new MysqlDialect({ pool: createPool(poolOptions(options)) }),
    plugins: [new CamelCasePlugin()],
  });
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
