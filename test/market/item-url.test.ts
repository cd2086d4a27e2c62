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
