import t from 'tap';
import { canonicalItemUrl } from '@comps/shared/market/parse/normalize-row';

/** What the URL parser makes of a link: the rule `canonicalItemUrl` follows, with or without its shortcut. */
function byUrlParser(href: string | null, itemId: string): string {
  try {
    const url = new URL(href ?? '');
    return `${url.origin}${url.pathname.slice(0, Math.max(0, url.pathname.indexOf('/itm/')))}/itm/${itemId}`;
  } catch {
    return `/itm/${itemId}`;
  }
}

t.test('a listing\'s address is what the URL parser makes of its link, whatever the link', async (t) => {
  const links = [
    'https://www.ebay.com/itm/406610186423?_skw=x&itmmeta=01K&hash=item5e:g:C~kA',
    'https://www.ebay.co.uk/itm/Warhammer-40k-Intercessor/264901451112?hash=x',
    'http://www.ebay.de/itm/123456789012',
    'HTTPS://WWW.EBAY.COM/itm/123456789012',
    'https://www.ebay.com:443/itm/123456789012',
    'http://127.0.0.1:4010/market.com/itm/123456789012?x=1',
    'https://1.2.3/itm/123456789012',
    'https://0x7f.0.0.1/itm/123456789012',
    'https://user@www.ebay.com/itm/123456789012',
    ' https://www.ebay.com/itm/123456789012',
    'https://www.eb\nay.com/itm/123456789012',
    'https://www.ebay.com./itm/123456789012',
    'https://xn--bcher-kva.example/itm/123456789012',
    'https:\\\\www.ebay.com\\itm\\123456789012',
    'https://www.ebay.com/sch/itm/123456789012',
    '/itm/123456789012',
    'not a url',
    null,
  ];
  for (const href of links) t.equal(canonicalItemUrl(href, '123456789012'), byUrlParser(href, '123456789012'), JSON.stringify(href));
});

t.test('every combination of scheme, host, port, path before /itm/ and what follows it gives what the URL parser makes of it', async (t) => {
  const schemes = ['http', 'https', 'HTTP', 'ftp'];
  const hosts = ['xn--a.com', 'xn--0.z', 'www.ebay.com', 'WWW.ebay.com', '127.0.0.1', '0.0.0.0', '255.255.255.255', '256.1.1.1', '01.2.3.4', '1.2.3', '127.1', '0x7f.0.0.1', '1.2.3.4.example', 'a-b.c-d', 'host_name.com', 'ebay.com.', 'xn--bcher-kva.example', 'localhost', '[::1]', 'user@www.ebay.com'];
  const ports = ['', ':80', ':443', ':8080', ':0', ':080', ':65535', ':65536', ':99999', ':', ':4010x'];
  const paths = ['', '/market.com', '/a/b-c/d_e~f', '/.', '/..', '/./x', '/a/../b', '/%2e', '/a%20b', '/a b', '/A/B', '//x', '/itm', '/itmx', '/itm/itm', '/x\\y', '/a?b', '/a#b', '/.well-known'];
  // After /itm/: the id, a slug, and what the parser would rewrite (dot segments take /itm away from the whole path).
  const rests = ['123456789012?hash=item1&_trksid=p1', 'Slug-Name.v2/123456789012#x', '', '?q', '../x', '..', '%2e%2e/x', '.%2E?q', '..\\x', '.\t./x', 'a/../../b', 'x/', 'x//y', '.hidden/1', 'a%20b', '../../itm/9'];
  let checked = 0;
  const differing: string[] = [];
  for (const scheme of schemes) {
    for (const host of hosts) {
      for (const port of ports) {
        for (const path of paths) {
          for (const rest of rests) {
            const href = `${scheme}://${host}${port}${path}/itm/${rest}`;
            checked += 1;
            if (canonicalItemUrl(href, '123456789012') !== byUrlParser(href, '123456789012')) differing.push(href);
          }
        }
      }
    }
  }
  t.strictSame(differing, [], `${checked} links`);
});
