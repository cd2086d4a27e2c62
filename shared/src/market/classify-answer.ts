import { AppError } from '../errors/app-error.js';
import { PageText, type PageSource } from './parse/page-text.js';

/** What came back from the marketplace, before any parsing. */
export interface UpstreamAnswer {
  status: number;
  /** The page: its bytes as they came (the fetcher's), or its text (a saved page, a test). */
  body: PageSource;
  /** The address that answered, after redirects. */
  url: string;
  retryAfterSeconds: number | null;
}

const CHALLENGE_TITLE = /<title>[^<]*(pardon our interruption|security measure|access denied|robot check|checking your browser|just a moment|are you a human|verify you are human)/i;
const CHALLENGE_MARKERS = /AppName: splashui|\/splashui\/(challenge|captcha)|px-captcha|g-recaptcha|h-captcha|hcaptcha|captcha-container|id=["']?captcha|challenge-form/i;
/**
 * Normal pages load captcha scripts too; a marker only counts on a page without results or an item.
 * Looked for one by one, the kind asked for first: a string search finds the first (about 400 KB into
 * a results page) in half the time the alternation of all four took (0.20 against 0.40 ms a simulator
 * page). Any of the four counts, whatever the kind.
 */
const CONTENT_MARKUP: Readonly<Record<'search' | 'item', readonly string[]>> = {
  search: ['srp-results', 'srp-river-results', 'srp-controls__count-heading', 'x-item-title'],
  item: ['x-item-title', 'srp-results', 'srp-river-results', 'srp-controls__count-heading'],
};
const SIGN_IN_TITLE = /<title>\s*(sign in|sign-in|anmelden|einloggen|connectez-vous|se connecter|accedi|inicia sesión|iniciar sesión|サインイン)/i;

/**
 * Where the marketplace sends a request it will only serve to a signed-in session: its sign-in
 * host or path (`signin.ebay.com`, `/signin/…`, the old `eBayISAPI.dll?SignIn`), and the
 * `/splashui/challenge` interstitial it puts in front of sold searches.
 */
function isSignInAddress(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  const path = url.pathname.toLowerCase();
  return (
    url.hostname.startsWith('signin.') ||
    // A path segment, not only the path's start: a site can be mounted under a prefix (the simulator).
    /(?:^|\/)signin(?:[/.]|$)/.test(path) ||
    /(?:^|\/)splashui\/challenge(?:[/.]|$)/.test(path) ||
    (path.endsWith('/ebayisapi.dll') && /^\??signin\b/i.test(url.search))
  );
}

type Block = 'sign_in' | 'bot_check';

/** Where the page's head ends: the first 200,000 characters (of a page read as bytes, bytes). */
const HEAD_LENGTH = 200_000;
const TITLE_TAG = /<title>/gi;

/**
 * The titles in the head, as text: from each `<title>` to the next "<", which holds whatever
 * `SIGN_IN_TITLE` or `CHALLENGE_TITLE` can match (some of their words are not ASCII, and case
 * folds only on text), decoded from a page read as bytes. Each starts with "<": no match spans two.
 */
function titlesOf(page: PageText, head: string): string {
  let titles = '';
  TITLE_TAG.lastIndex = 0;
  for (let match = TITLE_TAG.exec(head); match; match = TITLE_TAG.exec(head)) {
    const next = head.indexOf('<', match.index + 1);
    titles += page.text(match.index, next === -1 ? head.length : next);
  }
  return titles;
}

/** A sign-in wall, or a bot challenge or captcha, whatever the status it came with. */
function blockOf(answer: UpstreamAnswer, kind: 'search' | 'item', page: PageText): Block | null {
  if (isSignInAddress(answer.url)) return 'sign_in';
  // Challenge pages are small and say so at the top; the markers are searched in the head only.
  const { html } = page;
  const head = html.length > HEAD_LENGTH ? html.slice(0, HEAD_LENGTH) : html;
  const titles = titlesOf(page, head);
  if (SIGN_IN_TITLE.test(titles)) return 'sign_in';
  if (CHALLENGE_TITLE.test(titles)) return 'bot_check';
  // Looking for results or an item first is cheap, and spares most pages the marker scan (all ASCII: bytes read as text do).
  return !CONTENT_MARKUP[kind].some((name) => html.includes(name)) && CHALLENGE_MARKERS.test(head) ? 'bot_check' : null;
}

const BLOCK_MESSAGES: Readonly<Record<Block, string>> = {
  sign_in:
    'The marketplace sent the request to its sign-in page: sold searches need a signed-in session. Set MARKET_COOKIE to the cookie of a signed-in browser session',
  bot_check: 'The marketplace answered with a bot check instead of the page',
};

/**
 * The verdict on an answer before parsing: throttled (429), blocked (challenge, captcha, sign-in),
 * an error status, or fine to parse. Whether a 200 page is the page we asked for is the parser's
 * question (a search that is not a results page is `upstream_error`, an item page that is the
 * not-found page is `item_not_found`). `page` is the answer's body as read, when the caller has it.
 */
export function classifyAnswer(answer: UpstreamAnswer, kind: 'search' | 'item', page: PageText = PageText.of(answer.body)): AppError | null {
  if (answer.status === 429) {
    return new AppError('upstream_rate_limited', 'The marketplace is throttling requests; retry shortly', {
      retryAfter: answer.retryAfterSeconds ?? 5,
    });
  }
  const block = blockOf(answer, kind, page);
  if (block) return new AppError('upstream_blocked', BLOCK_MESSAGES[block]);
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
