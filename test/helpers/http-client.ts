export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: T;
}

export interface RequestOptions {
  method?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
}

/** One HTTP request, as a caller would make it; the body is read whole and parsed when JSON. */
export async function request<T = any>(baseUrl: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed as T };
}

/**
 * Polls `check` until it returns a value other than undefined; after `timeoutMs` it fails naming
 * what it waited for (`label`), so that a failure says which wait gave up. The default only bounds
 * a hang (what crosses processes takes seconds on a loaded 2-core machine); a wait whose length is
 * the behaviour under test says its own.
 */
export async function eventually<T>(label: string, check: () => Promise<T | undefined>, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const { timeoutMs = 15_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms in vain for: ${label}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
