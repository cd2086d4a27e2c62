import { between, pick, randomFrom } from '../random.js';
import { escapeHtml } from './html.js';

/**
 * The bulk a real results page carries around its cards, in the kinds of markup the saved pages
 * show: an inline bootstrap script and style sheet in the head, an SVG sprite, the global header,
 * the refinement rail (hundreds of checkbox links with tracking attributes), the controls, the
 * footer, and the framework's JSON state in a large script at the end. Its text is made up; its
 * shape (tags, attributes, comments, script and style bytes) is what makes a parser work as hard
 * as on the real site.
 */

type Random = () => number;

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const WORDS = ['shop', 'deal', 'brand', 'model', 'colour', 'size', 'style', 'type', 'series', 'year', 'material', 'feature', 'region', 'format', 'genre', 'pattern', 'theme', 'fit', 'department', 'character'];
const ASPECTS = ['Brand', 'Model', 'Colour', 'Type', 'Condition', 'Features', 'Material', 'Year', 'Style', 'Country/Region of Manufacture', 'Character', 'Size', 'Series', 'Format', 'Genre', 'Department', 'Theme', 'Pattern'];
const VALUES = ['Sony', 'Nintendo', 'Apple', 'Canon', 'Bose', 'Black', 'Silver', 'White', 'Blue', 'Red', 'Wireless', 'Vintage', 'Original', 'Modern', 'Large', 'Small', 'Unbranded', 'Not Specified', 'Japan', 'China', 'United States', 'Germany'];
const ICONS = ['add', 'remove', 'chevron-down', 'chevron-up', 'arrow-right', 'arrow-left', 'close', 'search', 'cart', 'notification', 'heart', 'star-filled', 'star-half', 'star-empty', 'filter', 'grid', 'list', 'info', 'confirmation', 'attention'];

export function token(random: Random, length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += TOKEN_CHARS[Math.floor(random() * TOKEN_CHARS.length)];
  return text;
}

function digits(random: Random, length: number): string {
  let text = String(between(random, 1, 9));
  for (let i = 1; i < length; i += 1) text += String(between(random, 0, 9));
  return text;
}

/** The framework's comment markers around every component (`<!--M_xxx#s0-2-54-…-->`). */
export function markerComment(random: Random): string {
  return `<!--M_5f9c1e2a#s0-2-54-0-9-8-${between(random, 0, 9)}-${between(random, 0, 9)}-${between(random, 0, 40)}[${between(random, 0, 80)}]-1-0-1-${between(random, 1, 9)}-->`;
}

/** The tracking attributes of a link: a module id, an interaction blob and an event description. */
export function trackingAttributes(random: Random, moduleId: number): string {
  return ` _sp=p2351460.m${moduleId}.l${between(random, 7000, 9999)} data-interactions='[{"actionKind":"NAVSRC","interaction":"${token(random, 96)}"}]' data-s-${token(random, 7).toLowerCase()}='{"eventFamily":"LST","eventAction":"ACTN","actionKind":"NAVSRC","actionKinds":["NAVSRC"],"operationId":"2351460","flushImmediately":false,"eventProperty":{"moduledtl":"mi%3A${moduleId}%7Ciid%3A${between(random, 1, 99)}%7Cli%3A${between(random, 1000, 9999)}%7C","$l":"${digits(random, 17)}"}}'`;
}

export function icon(name: string, size = 16): string {
  return `<svg class="icon icon--${size}" focusable=false aria-hidden=true><use href="#icon-${name}-${size}" /></svg>`;
}

function pathData(random: Random): string {
  const points = Array.from({ length: between(random, 6, 14) }, () => `${(random() * 16).toFixed(3)} ${(random() * 16).toFixed(3)}`);
  return `M${points.join('L')}Z`;
}

/** The sprite of icons every page inlines at the top of its body. */
function svgSprite(random: Random): string {
  const symbols = ICONS.flatMap((name) =>
    [12, 16, 24].map((size) => `<symbol viewbox="0 0 ${size} ${size}" id=icon-${name}-${size}><path d="${pathData(random)}"></path><path d="${pathData(random)}"></path></symbol>`),
  );
  return `<svg hidden style="position:absolute;height:0;width:0" xmlns="http://www.w3.org/2000/svg"><defs>${symbols.join('')}</defs></svg>`;
}

/** Bootstrap code of the kind the page inlines in its head: timers, tracking, feature flags. */
function bootScript(random: Random, bytes: number): string {
  const head = '(function(scope){var SITE_SPEED=scope.SITE_SPEED||{};';
  const functions = piecesOf(bytes - head.length, (i) => {
    const name = `_${token(random, 3)}${i}`;
    return `function ${name}(a,b){var c=a&&a[${JSON.stringify(pick(random, WORDS))}];if(!c||c.length<${between(random, 1, 9)})return b;for(var d=0;d<c.length;d++){if(c[d]===b||c[d].id==="${token(random, 12)}")return c[d]}return scope.${name}=b&&b.${pick(random, WORDS)}?b:null}scope.__flags["${token(random, 8)}"]=${random() < 0.5};`;
  });
  return `<script type="text/javascript">${head}${functions}})(window)</script>`;
}

/** Style rules of the kind the page inlines, about `bytes`. */
function styleRules(random: Random, bytes: number): string {
  return piecesOf(bytes, (i) => {
    const block = pick(random, ['s-card', 'su-card-container', 'x-refine', 'srp-controls', 'gh', 'srp-river', 'pagination', 'fake-menu', 'btn']);
    return `.${block}__${pick(random, WORDS)}-${i}{display:${pick(random, ['flex', 'block', 'inline-flex', 'grid'])};margin:0 0 ${between(random, 0, 24)}px;padding:${between(random, 0, 16)}px ${between(random, 0, 16)}px;color:var(--color-foreground-${pick(random, ['primary', 'secondary', 'disabled'])},#${token(random, 6).replace(/[^0-9a-f]/gi, 'a').toLowerCase()})}.${block}--${pick(random, WORDS)} .${block}__${i}:not(:last-child)>span{font-size:var(--font-size-${between(random, 10, 24)});line-height:${between(random, 12, 32)}px}`;
  });
}

/** The global header: account links, the logo, the search form with its category list. */
export function globalHeader(random: Random, siteBase: string, keyword: string): string {
  const accountLinks = ['Sign in', 'register', 'Daily Deals', 'Brand Outlet', 'Gift Cards', 'Help & Contact', 'Sell', 'Watchlist', 'My eBay']
    .map((label) => `<li class=gh-nav-link><a${trackingAttributes(random, 4056)} href="${siteBase}/${label.toLowerCase().replace(/\W+/g, '-')}">${escapeHtml(label)}</a></li>`)
    .join('');
  const categories = Array.from({ length: 36 }, (_, i) => `<option value=${between(random, 1, 180_000)}>${escapeHtml(`${pick(random, VALUES)} ${pick(random, ASPECTS)}`)}</option>`).join('');
  return `<div class=x-header>${markerComment(random)}<div class=ghw><header id=gh class="gh-header"><nav class=gh-nav aria-label="Account"><ul class=gh-nav__left>${accountLinks}</ul></nav><section class=gh-header__main><a class=gh-logo href="${siteBase}/">${icon('logo', 24)}<span class=clipped>eBay Home</span></a><form id=gh-f class=gh-search method=get action="${siteBase}/sch/i.html"><div class=gh-search-input__wrap><input id=gh-ac class=gh-search-input name=_nkw value="${escapeHtml(keyword)}" autocomplete=off aria-label="Search for anything" maxlength=300></div><div class=gh-search-categories><select id=gh-cat name=_sacat aria-label="Select a category for search"><option value=0 selected>All Categories</option>${categories}</select></div><button id=gh-search-btn class="gh-search-button btn btn--primary" type=submit>Search</button></form></section></header></div>${markerComment(random)}</div>`;
}

/** One group of the refinement rail (brand, model, colour…): checkbox links with counts. */
function refinementGroup(random: Random, group: number): string {
  const aspect = ASPECTS[group % ASPECTS.length]!;
  const values = Array.from({ length: between(random, 6, 18) }, () => {
    const value = `${pick(random, VALUES)}${random() < 0.3 ? ` ${pick(random, WORDS)}` : ''}`;
    const href = `/sch/i.html?${encodeURIComponent(aspect)}=${encodeURIComponent(value)}&amp;rt=nc&amp;_dcat=${between(random, 1000, 180_000)}`;
    return `<li class=x-refine__main__list--value name="${escapeHtml(aspect)}"><div class=x-refine__multi-select><a class="cbx x-refine__multi-select-link"${trackingAttributes(random, 4118)} href="${href}">${markerComment(random)}<div class=x-refine__multi-select-checkbox><input type=checkbox class="checkbox__control" aria-hidden=true tabindex=-1 aria-label="${escapeHtml(value)}"><span class=checkbox__icon hidden>${icon('checkbox-unchecked', 18)}${icon('checkbox-checked', 18)}</span><span class="cbx x-refine__multi-select-cbx">${escapeHtml(value)}<span class=x-refine__count><span class=clipped>Items</span> (${between(random, 1, 90_000).toLocaleString('en-US')})</span></span></div><!--M_5f9c1e2a/--></a></div></li>`;
  });
  return `<li class=x-refine__main__list data-expanded=${group < 6}><h3 class=x-refine__item__title><div aria-controls=x-refine__group__${group} aria-expanded=${group < 6} role=button tabindex=0 class=x-refine__item__title-container><!--F#f_0-->${escapeHtml(aspect)}<!--F/--><div class=x-refine-toggle>${icon('add')}${icon('remove')}</div></div></h3><div id=x-refine__group__${group} class=x-refine__group><ul class=x-refine__main__value>${values.join('')}</ul></div></li>`;
}

/** The controls above the results: sort order, view, the count heading (which the parser reads). */
export function resultControls(random: Random, heading: string): string {
  const sorts = ['Best Match', 'Time: ending soonest', 'Time: newly listed', 'Price + Shipping: lowest first', 'Price + Shipping: highest first', 'Distance: nearest first']
    .map((label, index) => `<li class=fake-menu-button__item><a class=fake-menu-button__item${trackingAttributes(random, 4116)} href="?_sop=${index + 10}"><span class=fake-menu-button__status>${icon('tick')}</span><span>${escapeHtml(label)}</span></a></li>`)
    .join('');
  return `<div class="s-answer-region s-answer-region-center-top"><div class="srp-controls srp-controls--with-list">${markerComment(random)}<div class=srp-controls__row><div class=srp-controls__count><h1 class="srp-controls__count-heading">${heading}</h1></div><div class=srp-controls__control--legacy><span class="fake-menu-button srp-sort"><button class="fake-menu-button__button btn btn--small btn--secondary" aria-expanded=false aria-haspopup=true type=button><span class=btn__cell>Sort: Best Match${icon('chevron-down', 12)}</span></button><ul class=fake-menu-button__menu>${sorts}</ul></span></div></div></div></div>`;
}

/** The footer's link lists. */
function globalFooter(random: Random): string {
  const columns = ['Buy', 'Sell', 'Tools & apps', 'Stay connected', 'About eBay', 'Help & Contact'].map((title) => {
    const links = Array.from({ length: between(random, 5, 10) }, () => {
      const label = `${pick(random, VALUES)} ${pick(random, WORDS)}`;
      return `<li class=gf-li><a class="thrd gf-bar-a"${trackingAttributes(random, 4320)} href="/${escapeHtml(label.toLowerCase().replace(/\W+/g, '-'))}">${escapeHtml(label)}</a></li>`;
    });
    return `<div class=gf-flex-col><h3 class=gf-bhdr>${escapeHtml(title)}</h3><ul>${links.join('')}</ul></div>`;
  });
  return `<div class=x-footer><footer id=glbfooter class=gh-w role=contentinfo><div class=gf-flex>${columns.join('')}</div><div id=gf-legal class=gf-legal>Copyright © 1995-2026 eBay Inc. All Rights Reserved.</div></footer></div>`;
}

export interface StateRow {
  id: string;
  title: string;
  href: string;
  image: string;
  price: string;
}

/** A widget's wiring in the framework's state: most are one line, some carry a model. */
function stateWidget(random: Random, widget: number): string {
  return random() < 0.7
    ? `["s0-2-54-0-9-8-4-${between(random, 0, 9)}-0-3-0-4[${widget % 240}]-1-0-1-6-1-7-33-1-1-2-1[${between(random, 1, 5)}]-0",${between(random, 1, 30)},null,{}]`
    : JSON.stringify([`s0-2-54-0-9-${widget}`, between(random, 1, 30), { model: { _type: `${pick(random, ASPECTS).replace(/\W/g, '')}Model`, label: { _type: 'TextualDisplay', textSpans: [{ _type: 'TextSpan', text: `${pick(random, VALUES)} ${pick(random, WORDS)}` }] }, trackingId: token(random, 24) } }, { f: 1, s: { open: false } }]);
}

/** Pieces of `piece` made until they hold about `bytes`. */
function piecesOf(bytes: number, piece: (index: number) => string): string {
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index += 1) {
    const part = piece(index);
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

/** Picks pieces from `pool` (by `random`) until they hold about `bytes`. */
function fill(random: Random, pool: readonly string[], bytes: number, separator = ''): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const part = pick(random, pool);
    parts.push(part);
    size += part.length + separator.length;
  }
  return parts.join(separator);
}

/**
 * The furniture of full-size pages, made once when the simulator starts (its bulk is the same kind
 * of markup on every page): each page picks pieces by its own seed, so rendering one costs little
 * more than its cards.
 */
export class PageFurniture {
  readonly sprite: string;
  private readonly bootScripts: string[];
  private readonly styleChunks: string[];
  private readonly railGroups: string[];
  private readonly stateChunks: string[];
  private readonly footers: string[];

  constructor(seed = 0x5eed) {
    const random = randomFrom(seed);
    this.sprite = svgSprite(random);
    this.bootScripts = Array.from({ length: 4 }, () => bootScript(random, between(random, 25_000, 40_000)));
    this.styleChunks = Array.from({ length: 16 }, () => styleRules(random, 16_000));
    this.railGroups = Array.from({ length: 48 }, (_, group) => refinementGroup(random, group));
    this.stateChunks = Array.from({ length: 16 }, (_, chunk) => piecesOf(32_000, (index) => stateWidget(random, chunk * 1000 + index)));
    this.footers = Array.from({ length: 4 }, () => globalFooter(random));
  }

  bootScript(random: Random): string {
    return pick(random, this.bootScripts);
  }

  /** An inline style sheet of about `bytes` (none for 0: some real pages carry one of a few hundred kilobytes, others none). */
  styleSheet(random: Random, bytes: number): string {
    return bytes > 0 ? `<style>${fill(random, this.styleChunks, bytes)}</style>` : '';
  }

  /** The refinement rail, about `bytes`: groups of checkbox links with counts. */
  refinementRail(random: Random, bytes: number): string {
    return `<div class=srp-rail__left><div class="s-answer-region s-answer-region-left-rail"></div><h2 class=clipped>Filter</h2><ul class="x-refine__body x-refine__body--flush-left"><li><ul class=x-refine__left__nav>${fill(random, this.railGroups, bytes)}</ul></li></ul></div>`;
  }

  footer(random: Random): string {
    return pick(random, this.footers);
  }

  /**
   * The framework's component state, one large script at the end of the body, about `bytes`: a
   * model per card (its link, title and image again), then every component's wiring.
   */
  stateScript(random: Random, rows: readonly StateRow[], bytes: number): string {
    const models = rows.map((row, index) =>
      JSON.stringify([
        `s0-2-54-0-9-8-4-5-0-3-0-4[${index}]-1-0-1-1-1-2-5`,
        22,
        { type: 'image', listingId: row.id, primaryImage: { href: row.href, alt: row.title, src: row.image }, price: row.price, loading: index < 8 ? 'eager' : 'lazy' },
        { f: 1 },
      ]),
    );
    const modelBytes = models.reduce((sum, model) => sum + model.length + 1, 0);
    // "<" is escaped so no title can end the script early.
    const wiring = fill(random, this.stateChunks, Math.max(0, bytes - modelBytes), ',');
    return `<script>$M_5f9c1e2a_C=(window.$M_5f9c1e2a_C||[]).concat({"o":{"l":1,"w":[${[...models, wiring].filter(Boolean).join(',').replace(/</g, '\\u003c')}]}})</script>`;
  }
}
