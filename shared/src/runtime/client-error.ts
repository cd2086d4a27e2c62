import type { Duplex } from 'node:stream';
import { buildErrorBody } from '../http/error-response.js';
import { AppError } from '../errors/app-error.js';
import { newRequestId } from '../ids.js';

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

/**
 * The `clientError` handler of every HTTP server of the stack: what Node answers itself (headers over 16 KB, a request
 * that is not HTTP, a request too slow to arrive) is the contract's error object with `X-Request-Id` rather than Node's
 * empty 431 or 400. The contract has no 431 or 408, so each is 400 `invalid_request` with its reason. Nothing is
 * written when the connection is gone or when a response to an earlier request on it has already begun.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const requestId = newRequestId();
  const body = JSON.stringify(buildErrorBody(new AppError('invalid_request', messageFor(error.code)), requestId));
  const response = [
    'HTTP/1.1 400 Bad Request',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
  // Half-close after the answer and keep reading: closing with the rest of an oversized request unread would make the
  // kernel reset the connection, and the caller (Caddy) could lose the answer and report a 502 instead.
  socket.end(response);
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
