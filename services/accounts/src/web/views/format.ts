import { html, type SafeHtml } from '../html.js';

const NUMBER = new Intl.NumberFormat('en-US');

export function formatNumber(value: number): string {
  return NUMBER.format(value);
}

/** A moment in UTC, as a `<time>` element: `2026-11-21 10:04 UTC`. */
export function formatTime(value: Date | string): SafeHtml {
  const date = typeof value === 'string' ? new Date(value) : value;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function monthName(value: Date): string {
  return `${MONTHS[value.getUTCMonth()]} ${value.getUTCFullYear()}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}
