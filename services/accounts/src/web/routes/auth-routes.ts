import type { Router } from '@koa/router';
import { AppError } from '@comps/shared/errors/app-error';
import { clientNetworkOf } from '@comps/shared/http/client-network';
import { endSession, startSession } from '../../sessions/session-service.js';
import { checkPassword, passwordLinkUser, setPasswordWithLink, signInAccountOf, signUp } from '../../users/user-service.js';
import { clearCookie, SESSION_COOKIE, setCookie } from '../cookies.js';
import { formField, queryField } from '../forms.js';
import { PageError } from '../page-error.js';
import { frameOf, seeOther, sendPage } from '../respond.js';
import { safeNextPath } from '../safe-next-path.js';
import { csrfTokenOf } from '../session-middleware.js';
import { setPasswordPage, signInPage, signUpClosedPage, signUpPage } from '../views/auth-pages.js';
import type { WebDeps } from '../web-deps.js';
import type { WebContext, WebState } from '../web-state.js';
import { webRouter } from '../web-router.js';

/** One message for an unknown e-mail address and a wrong password: the page never tells which accounts exist. */
export const WRONG_CREDENTIALS = 'The e-mail address or the password is not right.';

const minutes = (seconds: number) => `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;

/** Sign-up, sign-in, sign-out and the set-password link. */
export function authRoutes(deps: WebDeps): Router<WebState> {
  const router = webRouter();

  /** A fresh session (a new random id, whatever the browser had) for a user who has just proved who they are. */
  async function signIn(ctx: WebContext, userId: string): Promise<void> {
    const previous = ctx.cookies.get(SESSION_COOKIE);
    if (previous) await endSession(deps.db, previous);
    const session = await startSession(deps.db, userId, deps.now(), deps.sessions);
    setCookie(ctx, SESSION_COOKIE, session.sessionId, { maxAgeMs: deps.sessions.absoluteMs });
  }

  const showSignIn = (ctx: WebContext, view: { email?: string; error?: string | null; info?: string | null; next: string }, status = 200) =>
    sendPage(ctx, signInPage(frameOf(ctx, deps), { ...view, csrfToken: csrfTokenOf(ctx, 'signed-out'), signUpOpen: deps.signUpOpen }), status);

  router.get('/auth/sign-in', (ctx) => {
    const next = safeNextPath(queryField(ctx, 'next'));
    if (ctx.state.session) return seeOther(ctx, next);
    const info = queryField(ctx, 'signed-out') ? 'You have signed out.' : queryField(ctx, 'next') ? 'Sign in to continue.' : null;
    showSignIn(ctx, { next, info });
  });

  router.post('/auth/sign-in', async (ctx) => {
    const email = formField(ctx, 'email').trim();
    const password = formField(ctx, 'password');
    const next = safeNextPath(formField(ctx, 'next'));
    const address = clientNetworkOf(ctx.ip);
    const { account, user: named } = await signInAccountOf(deps.db, email);
    const wait = await deps.throttle.takeSignInAttempt(account, address);
    if (wait !== null) {
      ctx.set('Retry-After', String(wait));
      return showSignIn(ctx, { email, next, error: `Too many attempts to sign in. Try again in ${minutes(wait)}.` }, 429);
    }
    const user = email && password ? await checkPassword(deps.db, named, password) : null;
    if (!user) return showSignIn(ctx, { email, next, error: WRONG_CREDENTIALS }, 400);
    await deps.throttle.signInSucceeded(account, address);
    await signIn(ctx, user.id);
    seeOther(ctx, next);
  });

  router.get('/auth/sign-up', (ctx) => {
    if (!deps.signUpOpen) return sendPage(ctx, signUpClosedPage(frameOf(ctx, deps)), 403);
    if (ctx.state.session) return seeOther(ctx, '/dashboard');
    sendPage(ctx, signUpPage(frameOf(ctx, deps), { csrfToken: csrfTokenOf(ctx, 'signed-out') }));
  });

  router.post('/auth/sign-up', async (ctx) => {
    if (!deps.signUpOpen) return sendPage(ctx, signUpClosedPage(frameOf(ctx, deps)), 403);
    const email = formField(ctx, 'email').trim();
    const network = clientNetworkOf(ctx.ip);
    const wait = await deps.throttle.takeSignUp(network);
    if (wait !== null) {
      throw new AppError('rate_limited', `Too many new accounts from this address. Try again in ${minutes(wait)}.`, { retryAfter: wait });
    }
    const outcome = await signUp(deps.db, { email, password: formField(ctx, 'password') });
    if (!outcome.ok) {
      // A taken address keeps its count: trying addresses one after another is how one learns which exist.
      if (outcome.problem !== 'email_taken') await deps.throttle.giveBackSignUp(network);
      const status = outcome.problem === 'email_taken' ? 409 : 400;
      return sendPage(ctx, signUpPage(frameOf(ctx, deps), { csrfToken: csrfTokenOf(ctx, 'signed-out'), email, error: outcome.message }), status);
    }
    deps.logger.info({ userId: outcome.userId, workspaceId: outcome.workspaceId }, 'signed up');
    await signIn(ctx, outcome.userId);
    seeOther(ctx, '/dashboard');
  });

  router.post('/auth/sign-out', async (ctx) => {
    const session = ctx.state.session;
    if (session) await endSession(deps.db, session.sessionId);
    clearCookie(ctx, SESSION_COOKIE);
    seeOther(ctx, '/auth/sign-in?signed-out=1');
  });

  const invalidLink = () =>
    new PageError(400, 'This link does not work', 'The link was used already or has expired. Ask your administrator for a new one.');

  router.get('/auth/set-password', async (ctx) => {
    const token = queryField(ctx, 'token');
    const user = await passwordLinkUser(deps.db, token, deps.now());
    if (!user) throw invalidLink();
    sendPage(ctx, setPasswordPage(frameOf(ctx, deps), { csrfToken: csrfTokenOf(ctx, 'signed-out'), token, email: user.email }));
  });

  router.post('/auth/set-password', async (ctx) => {
    const token = formField(ctx, 'token');
    const outcome = await setPasswordWithLink(deps.db, { token, password: formField(ctx, 'password') }, deps.now());
    if (!outcome.ok) {
      if (outcome.problem === 'invalid_link') throw invalidLink();
      const user = await passwordLinkUser(deps.db, token, deps.now());
      if (!user) throw invalidLink();
      return sendPage(ctx, setPasswordPage(frameOf(ctx, deps), { csrfToken: csrfTokenOf(ctx, 'signed-out'), token, email: user.email, error: outcome.message }), 400);
    }
    await signIn(ctx, outcome.userId);
    seeOther(ctx, '/dashboard');
  });

  return router;
}
