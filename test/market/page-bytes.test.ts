import t, { type Test } from 'tap';
import { parseDocument } from 'htmlparser2';
import { classifyAnswer } from '@comps/shared/market/classify-answer';
import { parseHtml } from '@comps/shared/market/parse/dom';
import { readItemPage } from '@comps/shared/market/parse/item-page';
import { PageText } from '@comps/shared/market/parse/page-text';
import { parseSearchDocument, parseSearchPage } from '@comps/shared/market/parse/search-page';
import { KeptAttributes, parseElementAt, parseSkimmed } from '@comps/shared/market/parse/skimmed-tree';
import { shape } from '../helpers/tree-shape.js';

// A page read from its bytes must read as its text does (`Buffer#toString('utf8')`, invalid
// sequences made U+FFFD): the parser decodes the UTF-8 of each raw run it returns, and adds what
// references stand for as code points, after.

const KEEP = new Set(['class', 'href', 'title', 'data-x']);
const KEPT = new KeptAttributes(KEEP);

/** Bytes from text (as UTF-8) and raw bytes (numbers), in order. */
function bytesOf(...parts: Array<string | number[]>): Buffer {
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));
}

/** htmlparser2's tree of the page's text (decoded as the fetcher used to) against the skimmed tree of its bytes. */
function sameTree(t: Test, bytes: Buffer, name: string): void {
  const text = bytes.toString('utf8');
  const expected = shape(parseDocument(text, { decodeEntities: true }).children, KEEP);
  t.strictSame(shape(parseSkimmed(bytes, KEPT).children, KEEP), expected, `${name}: from the bytes`);
  t.strictSame(shape(parseSkimmed(text, KEPT).children, KEEP), expected, `${name}: from the text`);
}

const C3 = 0xc3; // the lead byte of é (c3 a9), ü (c3 bc)

const CASES: Array<[string, Buffer]> = [
  ['non-ASCII text', bytesOf('<p class=a>Café – 3,50 €, サイズ 28cm, 𝄞</p>')],
  ['references next to non-ASCII characters', bytesOf('<p>é&amp;ü &eacute;é &#8364;€ €&#x20AC; ß&nbsp;ß &copy;©</p>')],
  ['references the tokenizer decodes, next to non-ASCII characters', bytesOf('<p>é&copyé &notin;ü &ampü ü&amp &uuml;ü &Eacute&eacute</p>')],
  ['invalid sequences', bytesOf('<p>', [0xa9], 'a', [0xff, 0xfe], 'b', [0xc0, 0xaf], 'c', [0xed, 0xa0, 0x80], 'd', [0xf4, 0x90, 0x80, 0x80], 'e', [0xe2, 0x82], '</p>')],
  ['a character cut by a reference', bytesOf('<p>', [C3], '&amp;', [0xa9], ' ', [0xe2, 0x82], '&#8364;', [0xac], '</p>')],
  ['a character cut by a reference the tokenizer decodes', bytesOf('<p>', [C3], '&copy', [0xa9], '</p>')],
  ['a character cut by a tag, a comment, an end tag', bytesOf('<p>', [C3], '<b>', [0xa9], '</b>', [C3], '<!-- x -->', [0xbc], '</p>', [0xe2, 0x82], '<i>', [0xac], '</i>')],
  ['a character cut by a "<" that starts no tag', bytesOf('<p>', [C3], '< ', [0xa9], '</p>')],
  ['a cut character at the very end', bytesOf('<p>ok</p>', [0xf0, 0x9f, 0x98])],
  ['non-ASCII in attributes', bytesOf(`<a href="/itm/Café-€?q=ü&amp;x=é&copy=ß" title='Grüße "€"' data-x=naïve class=Ünïcode>l</a>`)],
  ['references next to non-ASCII in attributes', bytesOf('<a title="é&amp;ü&eacute;é&#8364;€&copyé&copy=ü&notin;" href=é&amp;é>l</a>')],
  ['invalid sequences in attributes', bytesOf('<a title="', [C3], '&amp;', [0xa9, 0xff], '" href=', [0xe2, 0x82], '>l</a>')],
  ['non-ASCII names', bytesOf('<DIVÉ class=x é="dropped" titlé=dropped data-É=x>a</divé><p>b</DIVÉ><sÉction title=kept>c</séction>')],
  ['non-ASCII raw text', bytesOf('<script>var s = "é</p>ü";</script><style>p::after{content:"€"}</style><title>Café &amp; thé</title><textarea>é&amp;ü</textarea>')],
  ['a byte order mark', bytesOf([0xef, 0xbb, 0xbf], '<p>x</p>')],
  ['attributes dropped and kept, in any case and spacing', bytesOf(`<a data-y = 'é' CLASS = "K" Class=second HREF=/é title data-x=é/ x=">" title=late>a</a><b data-z="é>b</b>c`)],
  ['a value that never ends', bytesOf(`<p data-y='é class=k>t</p><i>u</i>`)],
];

t.test('from the bytes, the skimmed tree is htmlparser2\'s tree of the text', async (t) => {
  for (const [name, bytes] of CASES) sameTree(t, bytes, name);
});

t.test('random pages: bytes and text read alike, whatever the bytes', async (t) => {
  // Markup, references and UTF-8 fragments (whole, cut, invalid) mixed at random; a fixed seed.
  const pieces: Array<string | number[]> = [
    '<p>', '</p>', '<a href="', '<a title=', '" class=x>', "'", '"', '>', '<b>', '</b>', '<!--', '-->', '<script>', '</script>', '<li class=s-card>', '</li>',
    '&amp;', '&eacute;', '&#8364;', '&#xe9;', '&copy', '&notin;', '&', ';', '=', ' ', 'text', 'é', '€', '𝄞', 'サ', 'ß',
    [0xc3], [0xa9], [0xe2, 0x82], [0xac], [0xf0, 0x9f], [0x98, 0x80], [0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80],
  ];
  let seed = 20240611;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  let failures = 0;
  for (let page = 0; page < 3000; page += 1) {
    const parts = Array.from({ length: 1 + Math.floor(random() * 30) }, () => pieces[Math.floor(random() * pieces.length)]!);
    const bytes = bytesOf(...parts);
    const text = bytes.toString('utf8');
    const fromBytes = JSON.stringify(shape(parseSkimmed(bytes, KEPT).children, KEEP));
    const fromText = JSON.stringify(shape(parseDocument(text, { decodeEntities: true }).children, KEEP));
    if (fromBytes !== fromText && failures++ < 5) t.equal(fromBytes, fromText, `page ${page}: ${bytes.toString('hex')}`);
  }
  t.equal(failures, 0, 'every random page reads alike');
});

t.test('long pages: text that spans stretches of ASCII and of non-ASCII bytes', async (t) => {
  // Texts and values of every length around each 4 KiB boundary, with a non-ASCII character at either end or none.
  const parts: string[] = [];
  for (let length = 4000; parts.join('').length < 40_000; length += 37) {
    const filler = 'x'.repeat(length % 300);
    parts.push(`<p title="${filler}é">${filler}</p><p>${'y'.repeat(length % 4200)}</p><p>ü${filler}</p><a href="/${filler}">€</a>`);
  }
  sameTree(t, bytesOf(parts.join('')), 'long page');
  sameTree(t, bytesOf('a'.repeat(4095), 'é<p>', 'b'.repeat(8190), '</p>ü'), 'a character across a boundary');
});

t.test('kept attributes are named in lower case ASCII', async (t) => {
  t.throws(() => new KeptAttributes(new Set(['é'])), /lower case ASCII/);
  t.throws(() => new KeptAttributes(new Set(['Class'])), /lower case ASCII/);
});

t.test('one element from the bytes ends where it ends in the text', async (t) => {
  const bytes = bytesOf('<p>é</p><div class=a>Grüße<ul><li>€<li>ü</ul></div><p>après</p>');
  const page = PageText.of(bytes);
  const start = page.html.indexOf('<div');
  const { element, end } = parseElementAt(page, KEPT, start);
  t.strictSame(shape([element!], KEEP), [['div', { class: 'a' }, ['Grüße', ['ul', {}, [['li', {}, ['€']], ['li', {}, ['ü']]]]]]]);
  t.equal(page.text(end, page.html.length), '<p>après</p>', 'it ends after its end tag');
});

t.test('page text: spans decode as the page does', async (t) => {
  const bytes = bytesOf('a', [0xc3, 0xa9], '<', [0xc3], '>', [0xa9], '&');
  const page = PageText.of(bytes);
  t.equal(page.html, bytes.toString('latin1'), 'one character a byte');
  t.equal(page.text(0, 3), 'aé');
  t.equal(page.text(4, 5), '\ufffd', 'a cut sequence is U+FFFD, as in the whole page');
  t.equal(page.text(0, page.html.length), bytes.toString('utf8'));
  t.equal(page.decode(page.html.slice(0, 3)), 'aé');
  t.equal(page.encode('é'), '\u00c3\u00a9', 'text to search for, as bytes');
  const text = PageText.of('aé');
  t.equal(text.html, 'aé', 'text is read as it is');
  t.equal(text.text(0, 2), 'aé');
  t.equal(PageText.of(page), page, 'a page read once is not read again');
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, 3);
  t.equal(PageText.of(view).text(0, 3), 'aé', 'any Uint8Array');
});

/** A results page whose rows hold non-ASCII text, references beside it, and a bad byte. */
function resultsPage(): Buffer {
  const card = (id: string, title: Array<string | number[]>, price: string, seller: string) =>
    bytesOf(
      `<li class="s-card s-card--horizontal" data-listingid="${id}"><div class="su-card-container"><a class="s-card__link" href="https://www.ebay.de/itm/${id}?_trk=é&amp;x=1"><div class="s-card__title"><span>`,
      ...title,
      `</span></div></a><div class="s-card__caption"><span>Verkauft  7. Mär 2026</span></div><div class="su-card-container__attributes__primary"><div class="s-card__attribute-row"><span class="s-card__price">${price}</span></div><div class="s-card__attribute-row"><span>Gebraucht · Größe M</span></div></div>`,
      `<div class="su-card-container__attributes__secondary"><div class="s-card__attribute-row"><span class="su-styled-text">${seller}</span><span class="su-styled-text">99,5 % positiv (1.234)</span></div></div></div></li>`,
    );
  return Buffer.concat([
    bytesOf('<html><head><title>LEGO Ünïcode | eBay</title></head><body><h1 class="srp-controls__count-heading"><span class="BOLD">1.300</span> Ergebnisse für Grüße</h1>'),
    bytesOf('<div class="srp-river-results clearfix"><ul class="srp-results srp-list clearfix">'),
    card('111111111111', ['Café-Set für Grüße – Größe 𝄞 &amp; ü&uuml; &#8364;'], 'EUR 13,50', 'händler_ß'),
    card('222222222222', ['Bad ', [0xc3], '&amp;', [0xa9], ' byte ', [0xff]], 'EUR 1.299,00', 'seller&eacute;é'),
    card('333333333333', ['Chaussures &Eacute;t&eacute; été'], 'EUR 5,00 bis EUR 8,00', 'ジョン'),
    bytesOf('<li class="srp-river-answer srp-river-answer--BASIC_PAGINATION_V2"><nav class="pagination"><a class="pagination__next" href="?_pgn=2">Weiter</a></nav></li></ul></div></body></html>'),
  ]);
}

t.test('a results page from its bytes: the same rows, titles, prices and sellers as from its text', async (t) => {
  const bytes = resultsPage();
  const text = bytes.toString('utf8');
  const whole = parseSearchDocument(parseHtml(text), 'market.de');
  t.equal(whole.items.length, 3);
  t.equal(whole.items[0]!.title, 'Café-Set für Grüße – Größe 𝄞 & üü €');
  t.equal(whole.items[1]!.title, 'Bad \ufffd&\ufffd byte \ufffd');
  t.strictSame(parseSearchPage(bytes, 'market.de'), whole, 'from the bytes');
  t.strictSame(parseSearchPage(text, 'market.de'), whole, 'from the text');
  // A page without the results container is read whole: from the bytes too.
  const bare = Buffer.from(bytes.toString('latin1').replace('srp-river-results', 'srp-main').replace('srp-results', 'srp-list'), 'latin1');
  t.strictSame(parseSearchPage(bare, 'market.de'), parseSearchDocument(parseHtml(bare.toString('utf8')), 'market.de'), 'read whole, from the bytes');
});

t.test('item pages from their bytes', async (t) => {
  const item = bytesOf(
    '<html><head><title>Objet | eBay</title><link rel="canonical" href="https://www.ebay.fr/itm/226771798286"></head><body>',
    '<h1 class="x-item-title__mainTitle"><span class="ux-textspans ux-textspans--BOLD">Article de presse « été » – 𝄞 &amp; ü</span></h1>',
    '<div class="x-price-primary"><span class="ux-textspans">8,50&nbsp;EUR</span></div>',
    '<div class="x-item-condition-text"><span class="ux-textspans">Très bon état</span></div>',
    '<div class="ux-layout-section--shipping"><div class="ux-labels-values--shipping"><div class="ux-labels-values__values"><span class="ux-textspans">2,70 EUR Livraison</span></div></div>',
    "<span class=\"ux-textspans\">Lieu où se trouve l'objet : Évry, France</span></div>",
    '<div class="ux-layout-section--itemId"><span class="ux-textspans ux-textspans--BOLD">226771798286</span></div>',
    '</body></html>',
  );
  const fromBytes = readItemPage(item, 'market.fr', null);
  t.strictSame(fromBytes, readItemPage(item.toString('utf8'), 'market.fr', null), 'the same item as from the text');
  t.equal(fromBytes.kind === 'item' && fromBytes.item.title, 'Article de presse « été » – 𝄞 & ü');
  t.equal(fromBytes.kind === 'item' && fromBytes.item.location, 'Évry, France', 'a prefix with non-ASCII characters, any case');
  // The not-found page is told by its text, read whole: "überall" is matched as text, in any case.
  const notFound = bytesOf('<html><head><title>Fehler | eBay</title></head><body><script>var x = "é";</script><p>WIR HABEN ÜBERALL GESUCHT</p></body></html>');
  t.strictSame(readItemPage(notFound, 'market.de', '123456789012'), { kind: 'not_found' });
  t.strictSame(readItemPage(notFound.toString('utf8'), 'market.de', '123456789012'), { kind: 'not_found' });
});

t.test('verdicts from the bytes: titles are read as text, non-ASCII words in any case', async (t) => {
  const answer = (body: Buffer) => ({ status: 200, body, url: 'https://www.market.test/sch/i.html', retryAfterSeconds: null });
  for (const title of ['Iniciar sesión', 'INICIAR SESIÓN', '  サインイン | eBay', 'Sign in or Register']) {
    const page = bytesOf(`<html><head><title>${title}</title></head><body>é</body></html>`);
    t.equal(classifyAnswer(answer(page), 'search')?.code, 'upstream_blocked', `a sign-in wall: ${title}`);
    t.equal(classifyAnswer({ ...answer(page), body: page.toString('utf8') }, 'search')?.code, 'upstream_blocked', `from the text too: ${title}`);
  }
  t.equal(classifyAnswer(answer(bytesOf('<html><head><title>Pardon Our Interruption…</title></head><body>ü</body></html>')), 'search')?.code, 'upstream_blocked', 'a bot check');
  // "ó" read as bytes, lower-cased, is not "Ó": matching on the bytes would miss it, or match what is not it.
  t.equal(classifyAnswer(answer(bytesOf('<html><head><title>Iniciar sesiÃ³n</title></head></html>')), 'search'), null, 'bytes that are no such word');
  t.equal(classifyAnswer(answer(bytesOf('<html><head><title>Café</title></head><body><ul class="srp-results"></ul></body></html>')), 'search'), null, 'a results page');
});
