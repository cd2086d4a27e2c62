import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorAnswer } from '../http/error-response.js';
import { AppError } from '../errors/app-error.js';
import { newRequestId } from '../ids.js';

/** The methods a path is served with, or null for a path the server does not know. */
export type AllowedMethods = (path: string) => string[] | null;

/** Node's reasons for refusing a request before any handler runs, in words a caller can act on. */
function messageFor(code: string | undefined): string {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'The request line and headers must not exceed 16 KB together';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'The request was not received in time';
    default:
      return 'The request is not valid HTTP';
  }
}

/** Sockets already answered: Node's parser reports its error again for every chunk that still arrives. */
const answered = new WeakSet<Duplex>();

/** How long an answered connection keeps reading what the caller still sends before it is cut. */
const LINGER_MS = 2000;

const REASONS: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed' };

/** Answers on the raw socket, in the contract's shape with `X-Request-Id`, then closes the connection. */
function answerRaw(socket: Duplex, error: AppError): void {
  const requestId = newRequestId();
  const answer = errorAnswer(error, requestId);
  const body = JSON.stringify(answer.body);
  const response = [
    `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    body,
  ].join('\r\n');
  // Half-close after the answer and keep reading: closing with the rest of a request unread would make the
  // kernel reset the connection, and the caller (Caddy) could lose the answer and report a 502 instead.
  socket.end(response);
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** A method the server does not serve on a path: 405 with `Allow` on a known path, 404 elsewhere. */
function refusedMethod(method: string, path: string, allowedMethods: AllowedMethods): AppError {
  const allowed = allowedMethods(path);
  if (!allowed) return new AppError('not_found', `No route for ${method} ${path}`);
  return new AppError('method_not_allowed', `${method} is not served on this path; use ${allowed.join(' or ')}`, { allow: allowed });
}

/** The method and path of a request line Node refused (`FOO /v1/scrape HTTP/1.1`). */
function requestLineOf(packet: Buffer | undefined): { method: string; path: string } | null {
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\/[^ ?#\r\n]*)[^ \r\n]* HTTP\/1\.[01]\r?\n/.exec(packet?.toString('latin1', 0, 2048) ?? '');
  return line ? { method: line[1]!, path: line[2]! } : null;
}

/**
 * The `clientError` handler of every HTTP server of the stack: what Node answers itself (headers over 16 KB, a request
 * that is not HTTP, a request too slow to arrive) is the contract's error object with `X-Request-Id` rather than Node's
 * empty 431 or 400. The contract has no 431 or 408, so each is 400 `invalid_request` with its reason; a method Node's
 * parser does not know (`FOO`) is the 405 any unserved method gets. Nothing is written when the connection is gone or
 * when a response to an earlier request on it has already begun.
 */
export function answerClientError(allowedMethods: AllowedMethods) {
  return (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const line = error.code === 'HPE_INVALID_METHOD' ? requestLineOf(error.rawPacket) : null;
    answerRaw(socket, line ? refusedMethod(line.method, line.path, allowedMethods) : new AppError('invalid_request', messageFor(error.code)));
  };
}

/** The `connect` handler: a CONNECT is not a tunnel here but a method no path serves (Node would otherwise drop the connection). */
export function answerConnect(allowedMethods: AllowedMethods) {
  return (request: IncomingMessage, socket: Duplex): void => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    answerRaw(socket, path.startsWith('/') ? refusedMethod('CONNECT', path, allowedMethods) : new AppError('invalid_request', 'CONNECT is not served: this is not a proxy'));
  };
}
