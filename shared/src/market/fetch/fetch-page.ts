import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { AppError } from '../../errors/app-error.js';
import type { UpstreamAnswer } from '../classify-answer.js';
import { deadline } from '../../runtime/deadline.js';
import { PageBytes } from './page-bytes.js';

const decompressors: Record<string, (input: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip) as never,
  'x-gzip': promisify(gunzip) as never,
  deflate: promisify(inflate) as never,
  br: promisify(brotliDecompress) as never,
};

export interface PageFetcherOptions {
  userAgent: string;
  timeoutMs: number;
  maxResponseBytes: number;
  proxyUrl?: string | undefined;
  cookie?: string | undefined;
  maxRedirects?: number;
}

export interface FetchedPage extends Omit<UpstreamAnswer, 'body'> {
  /** The body's bytes, decompressed, not decoded, as they came: the parser reads them as they are (see `PageText`). */
  body: PageBytes;
  elapsedMs: number;
}

function retryAfterOf(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(1, Math.ceil((date - Date.now()) / 1000));
}

function isTimeout(error: unknown): boolean {
  const names = new Set<string>();
  for (let current = error as { name?: string; code?: string; cause?: unknown } | undefined, depth = 0; current && depth < 4; depth += 1) {
    if (current.name) names.add(current.name);
    if (current.code) names.add(current.code);
    current = current.cause as typeof current;
  }
  return ['TimeoutError', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'].some((name) => names.has(name));
}

/**
 * GETs marketplace pages the way a browser would ask for them: the site's language, a real user
 * agent, compression, an optional cookie and outbound proxy. Every call has one deadline covering
 * connect, headers and body, and a cap on the (decompressed) size. Redirects are followed by hand so
 * the answer knows where it ended up (a sign-in wall is recognised by its address).
 */
export class PageFetcher {
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: PageFetcherOptions) {
    const timeouts = { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, connectTimeout: Math.min(options.timeoutMs, 10_000) };
    this.dispatcher = options.proxyUrl
      ? new ProxyAgent({ uri: options.proxyUrl, ...timeouts, connections: 256 })
      : new Agent({ ...timeouts, connections: 256, keepAliveTimeout: 30_000 });
  }

  /**
   * One page. `signal` abandons the call (the caller went away, or is shutting down): the error is
   * then the signal's reason, not an upstream error, so that nobody mistakes it for the marketplace's.
   */
  async fetch(url: string, acceptLanguage: string, abandon?: AbortSignal): Promise<FetchedPage> {
    const started = performance.now();
    abandon?.throwIfAborted();
    const limit = deadline(this.options.timeoutMs, abandon);
    const { signal } = limit;
    try {
      let current = url;
      for (let redirects = 0; ; redirects += 1) {
        const response = await request(current, {
          method: 'GET',
          dispatcher: this.dispatcher,
          signal,
          headers: {
            'user-agent': this.options.userAgent,
            accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
            'accept-language': acceptLanguage,
            'accept-encoding': 'gzip, deflate, br',
            ...(this.options.cookie ? { cookie: this.options.cookie } : {}),
          },
        });
        const location = response.headers.location;
        if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string' && redirects < (this.options.maxRedirects ?? 3)) {
          await response.body.dump();
          current = new URL(location, current).toString();
          continue;
        }
        const body = await this.readBody(response);
        return {
          status: response.statusCode,
          body,
          url: current,
          retryAfterSeconds: retryAfterOf(response.headers['retry-after']),
          elapsedMs: Math.round(performance.now() - started),
        };
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (abandon?.aborted) throw abandon.reason;
      if (isTimeout(error) || signal.aborted) {
        throw new AppError('upstream_timeout', `The marketplace did not answer within ${this.options.timeoutMs} ms`, { cause: error });
      }
      throw new AppError('upstream_error', 'The marketplace could not be reached', { cause: error });
    } finally {
      limit.release();
    }
  }

  private async readBody(response: Dispatcher.ResponseData): Promise<PageBytes> {
    const cap = this.options.maxResponseBytes;
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) throw tooLarge(response, cap);
    const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
    const decompress = decompressors[encoding];
    const raw = await readChunks(response, cap);
    // Not decoded: a 1–2 MB page costs milliseconds to decode, and the parser decodes only what it returns.
    if (!decompress) return raw;
    try {
      return PageBytes.of([await decompress(raw.whole(), { maxOutputLength: cap })]);
    } catch (error) {
      throw new AppError('upstream_error', `The marketplace's answer could not be decompressed, or is larger than ${cap} bytes`, { cause: error });
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

function tooLarge(response: Dispatcher.ResponseData, cap: number): AppError {
  response.body.destroy();
  return new AppError('upstream_error', `The marketplace's answer is larger than ${cap} bytes`);
}

/** The body, up to `cap` bytes, in the chunks it came in (put together by whoever reads it: see PageBytes). */
async function readChunks(response: Dispatcher.ResponseData, cap: number): Promise<PageBytes> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > cap) throw tooLarge(response, cap);
    chunks.push(chunk as Buffer);
  }
  return PageBytes.of(chunks);
}
