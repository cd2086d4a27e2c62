/** mysql2 error codes that mean "the database is not reachable", not "the query is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_BAD_DB_ERROR',
  'ER_ACCESS_DENIED_ERROR',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_QUERY_INTERRUPTED',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if ((current as { fatal?: unknown }).fatal === true) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function isDeadlock(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ER_LOCK_DEADLOCK';
}

export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ER_DUP_ENTRY';
}
