import { AppError } from '../errors/app-error.js';

/** What came back from the marketplace, before any parsing. */
export interface UpstreamAnswer {
  status: number;
  body: string;
  /** The address that answered, after redirects. */
  url: string;
  retryAfterSeconds: number | null;
}

const CHALLENGE_TITLE = /<title>[^<]*(pardon our interruption|security measure|access denied|robot check|checking your browser|just a moment|are you a human|verify you are human)/i;
const CHALLENGE_MARKERS = /AppName: splashui|\/splashui\/(challenge|captcha)|px-captcha|g-recaptcha|h-captcha|hcaptcha|captcha-container|id=["']?captcha|challenge-form/i;
/** Normal pages load captcha scripts too; a marker only counts on a page without results or an item. */
const CONTENT_MARKUP = /srp-results|srp-river-results|srp-controls__count-heading|x-item-title/;
const SIGN_IN_TITLE = /<title>\s*(sign in|sign-in|anmelden|einloggen|connectez-vous|se connecter|accedi|inicia sesión|iniciar sesión|サインイン)/i;

/** A bot challenge, captcha or sign-in wall, whatever the status it came with. */
function isBlockedAnswer(answer: UpstreamAnswer): boolean {
  // Challenge pages are small and say so at the top; the markers are searched in the head only.
  const head = answer.body.length > 200_000 ? answer.body.slice(0, 200_000) : answer.body;
  let host = '';
  try {
    host = new URL(answer.url).hostname;
  } catch {
    host = '';
  }
  if (host.startsWith('signin.') || CHALLENGE_TITLE.test(head) || SIGN_IN_TITLE.test(head)) return true;
  // Looking for results or an item first is cheap, and spares most pages the marker scan.
  return !CONTENT_MARKUP.test(answer.body) && CHALLENGE_MARKERS.test(head);
}

/**
 * The verdict on an answer before parsing: throttled (429), blocked (challenge, captcha, sign-in),
 * an error status, or fine to parse. Whether a 200 page is the page we asked for is the parser's
 * question (a search that is not a results page is `upstream_error`, an item page that is the
 * not-found page is `item_not_found`).
 */
export function classifyAnswer(answer: UpstreamAnswer, kind: 'search' | 'item'): AppError | null {
  if (answer.status === 429) {
    return new AppError('upstream_rate_limited', 'The marketplace is throttling requests; retry shortly', {
      retryAfter: answer.retryAfterSeconds ?? 5,
    });
  }
  if (isBlockedAnswer(answer)) {
    return new AppError('upstream_blocked', 'The marketplace answered with a bot check or sign-in wall instead of the page');
  }
  if (kind === 'item' && (answer.status === 404 || answer.status === 410)) {
    return new AppError('item_not_found', 'The marketplace has no listing with that id');
  }
  if (answer.status >= 400) {
    return new AppError('upstream_error', `The marketplace answered with HTTP ${answer.status}`);
  }
  if (answer.status >= 300) {
    return new AppError('upstream_error', `The marketplace redirected too often (HTTP ${answer.status})`);
  }
  return null;
}
