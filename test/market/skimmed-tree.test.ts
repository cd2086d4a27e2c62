import t from 'tap';
import { parseDocument } from 'htmlparser2';
import { parseHtml } from '@comps/shared/market/parse/dom';
import { KeptAttributes, parseElementAt, parseSkimmed } from '@comps/shared/market/parse/skimmed-tree';
import { PageLandmarks } from '@comps/shared/market/parse/landmarks';
import { PageText } from '@comps/shared/market/parse/page-text';
import { scanResults, type ScannedEntry } from '@comps/shared/market/parse/results-scan';
import { parseSearchDocument, parseSearchPage } from '@comps/shared/market/parse/search-page';
import { fullGarbageCollection } from '@comps/shared/runtime/full-garbage-collection';
import { shape } from '../helpers/tree-shape.js';

const KEEP = new Set(['class', 'href', 'src', 'title', 'data-x']);
const KEPT = new KeptAttributes(KEEP);

// Markup htmlparser2 reads in its own ways: the skimmed tree must be its tree, without comments and other attributes.
const CASES: Array<[string, string]> = [
  ['implied end tags', '<ul><li class=a>one<li class=b>two</ul><p>para<div>block</div><p>x<h1>y</h1>'],
  ['void and self-closing elements', '<div><img src=a.jpg><br/><span/>inside the span<input type=text></div><svg><path d="M0"/><g/><title/>t</svg>after'],
  ['stray end tags', '<div>a</p>b</br>c</span>d</div></div>e'],
  ['raw text', '<script>if (a < b && "</div>") {}</script ><style>p>a{}</STYLE><title>A &amp; B</title><textarea>&amp;<b></textarea><script/>not raw<b>bold</b>'],
  ['comments, CDATA, declarations', '<!DOCTYPE html><!----><!-->x<!---->y<!-- <li class=hidden> -->z<![CDATA[c]]><?pi?>w</ <3 >'],
  ['attributes', `<a href="/itm/1?a=1&amp;b=2&c=3&copy=4&notit" class='x y' CLASS=z title=bare/ data-x = "spaced" data-y=drop href=second>l</a><b class="">e</b><i class>v</i><u data-x=">"a</u>`],
  ['references in text', 'AT&amp;T &lt;b&gt; &#8291;&#x2063; &copy 2020 &notin; &amp &ampx; &#0; &#128; &#xD800; &unknown; & x'],
  ['case', '<DIV CLASS="Up"><Span>T</SPAN></div>'],
  ['foreign content', '<svg><foreignObject><div/>html</foreignObject><circle/></svg><math><mi/>x</math>'],
];

t.test('the skimmed tree is htmlparser2\'s tree without comments and dropped attributes', async (t) => {
  for (const [name, html] of CASES) {
    t.strictSame(shape(parseSkimmed(html, KEPT).children, KEEP), shape(parseDocument(html, { decodeEntities: true }).children, KEEP), name);
  }
});

t.test('one element alone, and where it ends', async (t) => {
  const html = '<p>before</p><div class=a><ul><li>x<li>y</ul><img src=i></div><p>after</p>';
  const start = html.indexOf('<div');
  const { element, end } = parseElementAt(html, KEPT, start);
  t.equal(element?.name, 'div');
  t.equal(html.slice(end, end + 3), '<p>', 'ends after its end tag');
  t.strictSame(shape([element!], KEEP), shape(parseDocument(html).children, KEEP).slice(1, 2));
  const implied = '<ul><li class=a>one<li class=b>two</ul>';
  const first = parseElementAt(implied, KEPT, implied.indexOf('<li'));
  t.equal(implied.slice(first.end, first.end + 14), '<li class=b>tw', 'an element closed by the next start tag ends where that tag starts');
});

/** A results page in the saved pages' structure; `row` makes one card. */
function resultsPage(rows: string): string {
  return `<html><body><h1 class="srp-controls__count-heading"><span class="BOLD">3</span> results</h1><div class="srp-river-results clearfix" id="srp-river-results"><ul class="srp-results srp-list clearfix">${rows}<li class="srp-river-answer srp-river-answer--BASIC_PAGINATION_V2"><nav class="pagination"><a class="pagination__next" href="?_pgn=2">next</a></nav></li></ul></div></body></html>`;
}
function card(id: string, extra = ''): string {
  return `<li class="s-card s-card--horizontal" data-listingid="${id}"><div class="su-card-container"><a class="s-card__link" href="https://www.ebay.com/itm/${id}?x=1"><div class="s-card__title"><span>Item ${id}</span></div></a>${extra}<div class="s-card__caption"><span>Sold  Mar 7, 2026</span></div><div class="su-card-container__attributes__primary"><div class="s-card__attribute-row"><span class="s-card__price">$1.00</span></div></div></div></li>`;
}

t.test('pages whose rows do not add up are read as a tree, with the same answer', async (t) => {
  const pages: Array<[string, string]> = [
    ['well formed', resultsPage(card('111111111111') + card('222222222222') + card('333333333333'))],
    ['a row without its end tag', resultsPage(card('111111111111').replace('</li>', '') + card('222222222222'))],
    ['a part that never closes', resultsPage(card('111111111111', '<div class="s-card__subtitle"><span>Used') + card('222222222222'))],
    // Found after two rows were read: what was read of them is dropped, not read twice.
    ['a later row that never closes', resultsPage(card('111111111111') + card('222222222222') + card('333333333333').replace('</li>', ''))],
    ['a list that never closes', resultsPage(card('111111111111')).replace('</ul>', '')],
    ['a row commented out', resultsPage(`<!-- ${card('999999999999')} -->${card('111111111111')}`)],
    ['markup quoted in a script', resultsPage(`<script>var t = '<li class="s-card" data-listingid="888888888888">';</script>${card('111111111111')}`)],
    ['a divider before the list', resultsPage(card('111111111111')).replace('<ul class="srp-results', '<div class="srp-river-answer srp-river-answer--REWRITE_START"><span>Results matching fewer words</span></div><ul class="srp-results')],
  ];
  for (const [name, html] of pages) {
    const whole = parseSearchDocument(parseHtml(html), 'market.com');
    t.strictSame(parseSearchPage(html, 'market.com'), whole, name);
  }
});

/** The results container of a page, and what `scanResults` needs to read it. */
function scanOf(html: string) {
  const page = PageText.of(html);
  const landmarks = new PageLandmarks(page);
  return { page, landmarks, container: landmarks.findTagByClass('srp-river-results')! };
}

const SCAN_KEPT = new KeptAttributes(new Set(['class', 'href', 'data-listingid']));

t.test('the scan hands each row and answer over in page order', async (t) => {
  const { page, landmarks, container } = scanOf(resultsPage(card('111111111111') + card('222222222222') + card('333333333333')));
  const seen: string[] = [];
  const scanned = scanResults(page, landmarks, SCAN_KEPT, container, (entry: ScannedEntry) => {
    seen.push(entry.kind === 'row' ? `row ${entry.element.attribs['data-listingid']}` : `answer ${entry.element.attribs.class}`);
  });
  t.strictSame(scanned, { strayLinks: 0 });
  t.strictSame(seen, ['row 111111111111', 'row 222222222222', 'row 333333333333', 'answer srp-river-answer srp-river-answer--BASIC_PAGINATION_V2']);
});

t.test('a row handed over is not held by the scan: a page\'s row trees are never all alive at once', async (t) => {
  // Each row's subtitle decodes to 11 KB of its own (its "&amp;"s): 1,000 rows, 11 MB, if the scan held them.
  const rows = 1000;
  const subtitle = `<div class="s-card__subtitle">${'Pre-owned &amp; boxed '.repeat(500)}</div>`;
  const { page, landmarks, container } = scanOf(resultsPage(Array.from({ length: rows }, (_, index) => card(String(100_000_000_000 + index), subtitle)).join('')));
  const collect = fullGarbageCollection();
  let read = 0;
  let heldAtFirst = 0;
  let heldAtLast = 0;
  const scanned = scanResults(page, landmarks, SCAN_KEPT, container, (entry) => {
    if (entry.kind !== 'row') return;
    read += 1;
    if (read === 1 || read === rows) {
      collect();
      if (read === 1) heldAtFirst = process.memoryUsage().heapUsed;
      else heldAtLast = process.memoryUsage().heapUsed;
    }
  });
  t.strictSame(scanned, { strayLinks: 0 });
  t.equal(read, rows);
  const grownMb = (heldAtLast - heldAtFirst) / 1024 / 1024;
  t.ok(grownMb < 2, `the live heap grew by ${grownMb.toFixed(1)} MB from the first row to the last (a scan holding its rows: 11 MB or more)`);
});
