import type { KeyListEntry } from '../../dashboard/dashboard-service.js';
import { html } from '../html.js';
import { formatTime } from './format.js';
import { layout, notice, type PageFrame } from './layout.js';
import { confirmPage } from './confirm-page.js';

export interface KeysView {
  csrfToken: string;
  keys: KeyListEntry[];
  /** The key just created: shown this once. */
  created?: { key: string; name: string | null } | null;
  revoked?: KeyListEntry | null;
  error?: string | null;
  name?: string;
}

export const keyDisplay = (key: { prefix: string; lastFour: string }) => `${key.prefix}…${key.lastFour}`;

function newKeyPanel(created: { key: string; name: string | null }) {
  return html`<section class="panel new-key" aria-labelledby="new-key-heading">
    <h2 id="new-key-heading">Your new API key${created.name ? html`: ${created.name}` : ''}</h2>
    <p><strong>Copy it now: it will not be shown again.</strong> We keep only a fingerprint of it, so nobody (us included) can show it to you later.</p>
    <div class="key-row">
      <label class="visually-hidden" for="new-key">New API key</label>
      <input id="new-key" type="text" readonly value="${created.key}" spellcheck="false" autocomplete="off">
      <button type="button" class="secondary" data-copy-target="new-key" data-copy-status="copy-status" hidden>Copy</button>
    </div>
    <p id="copy-status" class="muted" role="status"></p>
  </section>`;
}

export function keysPage(frame: Omit<PageFrame, 'title' | 'current'>, view: KeysView): string {
  const active = view.keys.filter((key) => !key.revokedAt);
  return layout(
    { ...frame, title: 'API keys', current: 'keys', scripts: ['copy-key.js'] },
    html`<h1>API keys</h1>
    <p class="lead">Send a key as <code>Authorization: Bearer sk_…</code>. Keep keys on your servers: never in a web page, an app or a repository.</p>
    ${view.created ? newKeyPanel(view.created) : ''}
    ${view.revoked ? notice('success', html`The key <strong>${view.revoked.name ?? keyDisplay(view.revoked)}</strong> (<code>${keyDisplay(view.revoked)}</code>) is revoked. The API refuses it within 5 seconds.`) : ''}
    <section class="panel" aria-labelledby="create-heading">
      <h2 id="create-heading">Create a key</h2>
      ${notice('error', view.error)}
      <form class="inline" method="post" action="/dashboard/keys">
        <input type="hidden" name="_csrf" value="${view.csrfToken}">
        <div class="field">
          <label for="key-name">Name</label>
          <input id="key-name" name="name" type="text" maxlength="100" placeholder="e.g. price-sync backend" aria-describedby="key-name-hint" value="${view.name ?? ''}">
          <span class="hint" id="key-name-hint">Where the key will be used, so that you know which to revoke.</span>
        </div>
        <button type="submit">Create key</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="list-heading">
      <h2 id="list-heading">Your keys</h2>
      ${view.keys.length === 0
        ? html`<p class="muted">No keys yet. Create one above to start calling the API.</p>`
        : html`<div class="table-wrap"><table>
          <caption>${active.length} active, ${view.keys.length - active.length} revoked</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
          ${view.keys.map(
            (key) => html`<tr data-key-id="${key.id}">
              <td>${key.name ?? html`<span class="muted">(no name)</span>`}</td>
              <td><code>${keyDisplay(key)}</code></td>
              <td>${formatTime(key.createdAt)}</td>
              <td>${key.lastUsedAt ? formatTime(key.lastUsedAt) : html`<span class="muted">Not in the last 30 days</span>`}</td>
              <td>${key.revokedAt ? html`<span class="badge bad">Revoked</span> <span class="muted">${formatTime(key.revokedAt)}</span>` : html`<span class="badge ok">Active</span>`}</td>
              <td>${key.revokedAt
                ? ''
                : html`<form method="get" action="/dashboard/keys/${key.id}/revoke"><button type="submit" class="danger-outline" aria-label="Revoke ${key.name ?? keyDisplay(key)}">Revoke</button></form>`}</td>
            </tr>`,
          )}
          </tbody>
        </table></div>`}
    </section>`,
  );
}

/** The confirmation a Revoke button leads to: the only form that revokes, so nothing is revoked by one click. */
export function revokeConfirmPage(frame: Omit<PageFrame, 'title' | 'current'>, view: { csrfToken: string; key: KeyListEntry }): string {
  const label = view.key.name ?? keyDisplay(view.key);
  return confirmPage(frame, {
    title: 'Revoke key?',
    current: 'keys',
    heading: `Revoke the key ${label}?`,
    explanation: html`<p>The key <code>${keyDisplay(view.key)}</code>, created ${formatTime(view.key.createdAt)}, will stop working within 5 seconds, for every program that uses it. This cannot be undone: you would create a new key and put it in their place.</p>`,
    action: `/dashboard/keys/${view.key.id}/revoke`,
    csrfToken: view.csrfToken,
    button: 'Revoke key',
    cancelHref: '/dashboard/keys',
  });
}
