import t from 'tap';
import { findFirst, parseHtml } from '@comps/shared/market/parse/dom';
import { extractCardRow, extractItemRow } from '@comps/shared/market/parse/extract-rows';

// The row readers on rows that try their rules: a tag block's caption, details that are or hold a
// price, a price row among attribute rows (nested, repeated classes, a second primary section, a row
// outside the sections), the seller row in the secondary section.
const ITEM_ROW = `<li class="s-item s-item__pl-on-bottom"><div class="s-item__wrapper"><div class="s-item__image-section"><div class="s-item__image"><a href="https://www.ebay.com/itm/111111111111"><img src="https://i.ebayimg.com/images/g/x/s-l225.jpg"></a></div></div>
<div class="s-item__info"><a class="s-item__link" href="https://www.ebay.com/itm/111111111111?hash=1"><div class="s-item__title"><span>Vintage lamp</span> <span class="s-item__title--tagblock"><span class="POSITIVE">Sold  Jul 5, 2023</span><span class="clipped">hidden</span></span></div></a>
<div class="s-item__details"><div class="s-item__detail s-item__detail--primary"><span class="s-item__price"><span class="STRIKETHROUGH">$20.00</span> $12.50</span></div>
<div class="s-item__detail s-item__detail--primary"><span class="s-item__shipping">+$5.00 shipping</span></div>
<div class="s-item__detail s-item__detail--primary s-item__price">$99.00</div>
<div class="s-item__detail s-item__detail--primary"><span>Best offer accepted</span></div>
<span class="s-item__detail s-item__detail--secondary"><span class="s-item__etrs-text"><span>seller_x</span> <span>99.1% positive (1.2K)</span></span></span></div></div></div></li>`;
const CARD_ROW = `<li class="s-card s-card--horizontal" data-listingid="222222222222"><div class="su-card-container"><a class="s-card__link" href="https://www.ebay.com/itm/222222222222?x=1"><div class="s-card__title"><span>Road bike</span><span class="s-card__new-listing">NEW</span></div></a>
<div class="s-card__attribute-row">outside the sections</div>
<div class="s-card__caption"><span>Sold  Mar 7, 2026</span></div><div class="s-card__subtitle s-card__subtitle"><span>Pre-Owned</span></div>
<div class="su-card-container__attributes__primary"><div class="s-card__attribute-row">Buy It Now</div><div class="s-card__attribute-row s-card__attribute-row"><span class="s-card__price">$1.00</span><span class="s-card__price s-card__price strikethrough">$2.00</span></div><div class="s-card__attribute-row"><div class="s-card__attribute-row">nested +$3.00 delivery</div></div><div class="s-card__attribute-row"><span class="s-card__price">$9.00</span></div></div>
<div class="su-card-container__attributes__primary"><div class="s-card__attribute-row">second primary</div></div>
<div class="su-card-container__attributes__secondary"><div class="s-card__attribute-row"><span>no feedback here</span></div><div class="s-card__attribute-row"><span class="su-styled-text">bike_shop</span><span class="su-styled-text">100% positive (88)</span></div></div></div></li>`;

function firstRow(html: string) {
  return findFirst(parseHtml(html), (element) => element.name === 'li')!;
}

t.test('an s-item row', async (t) => {
  t.strictSame(extractItemRow(firstRow(ITEM_ROW)), {
    listingId: null,
    href: 'https://www.ebay.com/itm/111111111111?hash=1',
    title: 'Vintage lamp',
    imageUrl: 'https://i.ebayimg.com/images/g/x/s-l225.jpg',
    caption: 'Sold  Jul 5, 2023',
    subtitles: [],
    priceParts: [
      {
        text: '$20.00 $12.50',
        classes: 's-item__price strikethrough',
      },
    ],
    rows: ['+$5.00 shipping', 'Best offer accepted', 'seller_x 99.1% positive (1.2K)'],
    sellerName: 'seller_x',
    sellerFeedback: '99.1% positive (1.2K)',
  });
});

t.test('an s-card row', async (t) => {
  t.strictSame(extractCardRow(firstRow(CARD_ROW)), {
    listingId: '222222222222',
    href: 'https://www.ebay.com/itm/222222222222?x=1',
    title: 'Road bike',
    imageUrl: null,
    caption: 'Sold  Mar 7, 2026',
    subtitles: ['Pre-Owned', 'Pre-Owned'],
    priceParts: [
      {
        text: '$1.00',
        classes: 's-card__price',
      },
      {
        text: '$2.00',
        classes: 's-card__price s-card__price strikethrough',
      },
    ],
    rows: ['Buy It Now', 'nested +$3.00 delivery', 'nested +$3.00 delivery', '$9.00'],
    sellerName: 'bike_shop',
    sellerFeedback: '100% positive (88)',
  });
});
