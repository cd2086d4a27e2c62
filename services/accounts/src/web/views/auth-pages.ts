import { MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from '../../users/password-policy.js';
import { html, type SafeHtml } from '../html.js';
import { layout, notice, type PageFrame } from './layout.js';

type Frame = Omit<PageFrame, 'title'>;

function authPage(frame: Frame, title: string, content: SafeHtml): string {
  return layout({ ...frame, title }, html`<div class="auth"><div class="panel">${content}</div></div>`);
}

const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

const passwordHint = `At least ${MIN_PASSWORD_LENGTH} characters. A passphrase of a few unrelated words is good.`;

export interface SignInView {
  csrfToken: string;
  next: string;
  email?: string;
  error?: string | null;
  info?: string | null;
  signUpOpen: boolean;
}

export function signInPage(frame: Frame, view: SignInView): string {
  return authPage(
    frame,
    'Sign in',
    html`<h1>Sign in</h1>
    ${notice('info', view.info)}
    ${notice('error', view.error)}
    <form class="stacked" method="post" action="/auth/sign-in">
      ${csrfField(view.csrfToken)}
      <input type="hidden" name="next" value="${view.next}">
      <div class="field">
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${view.email ?? ''}" ${view.email ? '' : html`autofocus`}>
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${MAX_PASSWORD_LENGTH}" ${view.email ? html`autofocus` : ''}>
      </div>
      <div class="actions"><button type="submit">Sign in</button></div>
    </form>
    ${view.signUpOpen ? html`<p class="muted">New here? <a href="/auth/sign-up">Create an account</a>.</p>` : html`<p class="muted">Accounts are created by your administrator.</p>`}`,
  );
}

export interface SignUpView {
  csrfToken: string;
  email?: string;
  error?: string | null;
}

export function signUpPage(frame: Frame, view: SignUpView): string {
  return authPage(
    frame,
    'Create your account',
    html`<h1>Create your account</h1>
    <p class="lead">A workspace on the free plan, with its own API keys, usage and request history.</p>
    ${notice('error', view.error)}
    <form class="stacked" method="post" action="/auth/sign-up">
      ${csrfField(view.csrfToken)}
      <div class="field">
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${view.email ?? ''}">
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}" aria-describedby="password-hint">
        <span class="hint" id="password-hint">${passwordHint}</span>
      </div>
      <div class="actions"><button type="submit">Create account</button></div>
    </form>
    <p class="muted">Already have an account? <a href="/auth/sign-in">Sign in</a>.</p>`,
  );
}

export function signUpClosedPage(frame: Frame): string {
  return authPage(
    frame,
    'Sign-up is closed',
    html`<h1>Sign-up is closed</h1>
    <p>New accounts on this service are created by its administrator. Ask them for an account: you will get a link to choose your password.</p>
    <p><a class="button" href="/auth/sign-in">Sign in</a></p>`,
  );
}

export interface SetPasswordView {
  csrfToken: string;
  token: string;
  email: string;
  error?: string | null;
}

export function setPasswordPage(frame: Frame, view: SetPasswordView): string {
  return authPage(
    frame,
    'Choose your password',
    html`<h1>Choose your password</h1>
    <p class="lead">For <strong>${view.email}</strong>. This link works once.</p>
    ${notice('error', view.error)}
    <form class="stacked" method="post" action="/auth/set-password">
      ${csrfField(view.csrfToken)}
      <input type="hidden" name="token" value="${view.token}">
      <input type="text" name="username" value="${view.email}" autocomplete="username" hidden>
      <div class="field">
        <label for="password">New password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}" aria-describedby="password-hint" autofocus>
        <span class="hint" id="password-hint">${passwordHint}</span>
      </div>
      <div class="actions"><button type="submit">Set password</button></div>
    </form>`,
  );
}
