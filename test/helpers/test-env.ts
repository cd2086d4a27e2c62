/**
 * Where the tests' own database lives. Every test file shares it (the `before` step creates it
 * fresh); tests stay apart by using workspaces of their own and Redis keys under their own prefix.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/comps_test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const CADDY_BIN = process.env.CADDY_BIN ?? 'caddy';
