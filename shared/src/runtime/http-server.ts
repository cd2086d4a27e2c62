import { createServer, type Server, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError, answerConnect, type AllowedMethods } from './client-error.js';

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then cuts what is left. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Serves `handler` on the port (0: any free one). `allowedMethods` tells which methods a path is
 * served with, for the requests Node answers before any handler runs (an unknown method, CONNECT).
 */
export async function listen(handler: RequestListener, port: number, host: string, allowedMethods: AllowedMethods = () => null): Promise<RunningServer> {
  const server = createServer(handler);
  // Caddy keeps upstream connections alive; outlive its idle timeout so it never reuses a closed one.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('clientError', answerClientError(allowedMethods));
  server.on('connect', answerConnect(allowedMethods));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close(graceMs = 10_000) {
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
