import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';

/** An e-mail address no other test uses. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.com`;
}

export const GOOD_PASSWORD = 'correct horse battery staple';

/** Signs up through the page, as a person would; the browser ends on the dashboard. */
export async function signUpInBrowser(page: Page, email: string, password = GOOD_PASSWORD): Promise<void> {
  await page.goto('/auth/sign-up');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/dashboard');
}

export async function signInInBrowser(page: Page, email: string, password = GOOD_PASSWORD): Promise<void> {
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Creates a key on the keys page and returns it as the page shows it, once. */
export async function createKeyInBrowser(page: Page, name: string): Promise<string> {
  await page.goto('/dashboard/keys');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.waitForURL('**/dashboard/keys');
  return page.getByRole('textbox', { name: 'New API key' }).inputValue();
}

export interface PageAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The Location of a redirect, as a path. */
  location: string | null;
}

/**
 * A browser without a browser, for what a page cannot do: forms posted without their token or with
 * another session's, replayed forms, exact headers. It keeps cookies like a browser (by name; these
 * tests use one host) and never follows redirects.
 */
export class FormClient {
  readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<PageAnswer> {
    return this.send('GET', path, undefined, headers);
  }

  /** Posts a form; `_csrf` is whatever the caller puts in `fields` (or nothing). */
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<PageAnswer> {
    return this.send('POST', path, new URLSearchParams(fields).toString(), { 'content-type': 'application/x-www-form-urlencoded', ...headers });
  }

  async send(method: string, path: string, body: string | undefined, headers: Record<string, string> = {}): Promise<PageAnswer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, { method, body, redirect: 'manual', headers: { ...(cookie ? { cookie } : {}), ...headers } });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute));
      if (expired || value.join('=') === '') this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join('='));
    }
    const location = response.headers.get('location');
    return { status: response.status, headers: response.headers, text: await response.text(), location: location ? location.replace(/^https?:\/\/[^/]+/, '') : null };
  }

  /** The CSRF token of the first form on a page this client was served. */
  static csrfOf(page: PageAnswer): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!match) throw new Error(`no CSRF token on the page (status ${page.status})`);
    return match[1]!;
  }

  async signUp(email: string, password = GOOD_PASSWORD): Promise<PageAnswer> {
    const form = await this.get('/auth/sign-up');
    return this.post('/auth/sign-up', { _csrf: FormClient.csrfOf(form), email, password });
  }

  async signIn(email: string, password = GOOD_PASSWORD, next?: string): Promise<PageAnswer> {
    const form = await this.get('/auth/sign-in');
    return this.post('/auth/sign-in', { _csrf: FormClient.csrfOf(form), email, password, ...(next === undefined ? {} : { next }) });
  }

  /** The token of this client's signed-in forms (from its keys page). */
  async sessionCsrf(): Promise<string> {
    return FormClient.csrfOf(await this.get('/dashboard/keys'));
  }

  /** Creates a key through the form; returns it as the keys page shows it once, and its id. */
  async createKey(name: string): Promise<{ key: string; apiKeyId: string }> {
    const created = await this.post('/dashboard/keys', { _csrf: await this.sessionCsrf(), name });
    if (created.status !== 303) throw new Error(`creating a key answered ${created.status}`);
    const page = await this.get('/dashboard/keys');
    const key = /id="new-key" type="text" readonly value="(sk_[0-9A-Za-z]{40})"/.exec(page.text)?.[1];
    const row = new RegExp(`<tr data-key-id="(key_[0-9A-Z]{26})">\\s*<td>${name}</td>`).exec(page.text);
    if (!key || !row) throw new Error('the keys page shows no new key');
    return { key, apiKeyId: row[1]! };
  }

  /** The ids of the keys the keys page lists, with their status. */
  async listedKeys(): Promise<Array<{ apiKeyId: string; active: boolean }>> {
    const page = await this.get('/dashboard/keys');
    return [...page.text.matchAll(/<tr data-key-id="(key_[0-9A-Z]{26})">([\s\S]*?)<\/tr>/g)].map((match) => ({ apiKeyId: match[1]!, active: match[2]!.includes('badge ok') }));
  }
}
