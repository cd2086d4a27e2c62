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

/**
 * Standard output, written synchronously (as Node writes its own stdout to pipes and files). The default asynchronous
 * destination flushes at exit with a loop that retries a failed write every 100 ms: with the reader of the pipe gone
 * (EPIPE) a service never finished exiting. Written synchronously, a write to a gone reader fails at once and pino
 * stops logging (its EPIPE filter), so the process always exits.
 */
function standardOutput() {
  return pino.destination({ dest: 1, sync: true });
}

export function createLogger(service: string, level: LevelWithSilent): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin() {
        const context = requestContext.getStore();
        return context ? { requestId: context.requestId } : {};
      },
    },
    standardOutput(),
  );
}
