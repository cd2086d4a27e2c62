import { pino, type Logger, type LevelWithSilent } from 'pino';
import { requestContext } from './request-context.js';

export type { Logger } from 'pino';

/** Paths that could carry secrets; their values never reach a log line. */
const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'apiKey',
  '*.apiKey',
  'internalToken',
  '*.internalToken',
  'password',
  '*.password',
  'cookie',
  '*.cookie',
];

export function createLogger(service: string, level: LevelWithSilent): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin() {
      const context = requestContext.getStore();
      return context ? { requestId: context.requestId } : {};
    },
  });
}
