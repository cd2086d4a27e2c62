/**
 * What the simulator knows about the things people search for, as data: which words name a device,
 * a collectible or ordinary goods, how sellers spell them, which brand they belong to, and the
 * ranges a product's price and the pollution of its searches are drawn from, per family.
 */

/**
 * The three kinds of market the simulator tells apart. Devices draw accessory sales (cases,
 * chargers, empty boxes) and broken units; collectibles draw lots; goods a little of everything.
 */
export type ProductFamily = 'device' | 'collectible' | 'goods';

/** Words that say a keyword names a device or a collectible; a keyword with neither is goods (or, unknown, drawn). */
export const FAMILY_WORDS: Readonly<Record<Exclude<ProductFamily, 'goods'>, ReadonlySet<string>>> = {
  device: new Set([
    'airpods', 'apple', 'bose', 'camera', 'canon', 'console', 'dji', 'drone', 'dyson', 'earbuds', 'fujifilm', 'galaxy', 'garmin', 'gopro', 'gpu',
    'headphones', 'headset', 'imac', 'ipad', 'iphone', 'kindle', 'laptop', 'lens', 'macbook', 'makita', 'monitor', 'nikon', 'nintendo',
    'oled', 'pixel', 'playstation', 'ps3', 'ps4', 'ps5', 'rtx', 'samsung', 'sony', 'speaker', 'switch', 'tablet', 'thinkpad', 'tv',
    'watch', 'wh-1000xm4', 'wh-1000xm5', 'xbox',
  ]),
  collectible: new Set([
    'antique', 'barbie', 'beanie', 'card', 'cards', 'charizard', 'coin', 'coins', 'comic', 'comics', 'diecast', 'figure', 'figurine',
    'funko', 'holo', 'hot', 'lego', 'matchbox', 'minifig', 'minifigure', 'minifigures', 'mtg', 'pikachu', 'pokemon', 'pop', 'postcard',
    'psa', 'pyrex', 'redline', 'stamp', 'stamps', 'tcg', 'topps', 'vintage', 'vinyl', 'wheels', 'yugioh',
  ]),
};

/** A keyword whose words say nothing of its family is goods more often than not (never a device: no charger fits a lamp). */
export const UNKNOWN_FAMILY_WEIGHTS: Readonly<Record<Exclude<ProductFamily, 'device'>, number>> = { goods: 0.7, collectible: 0.3 };

/** How sellers write words that are not simply capitalized. */
export const WORD_SPELLINGS: Readonly<Record<string, string>> = {
  airpods: 'AirPods', dji: 'DJI', dvd: 'DVD', gopro: 'GoPro', hdmi: 'HDMI', imac: 'iMac', ipad: 'iPad', iphone: 'iPhone', ipod: 'iPod',
  lego: 'LEGO', lp: 'LP', macbook: 'MacBook', mtg: 'MTG', n64: 'N64', nes: 'NES', oled: 'OLED', playstation: 'PlayStation', psa: 'PSA',
  rtx: 'RTX', snes: 'SNES', tcg: 'TCG', thinkpad: 'ThinkPad', tv: 'TV', usb: 'USB', xbox: 'Xbox', cd: 'CD', gb: 'GB',
};

/** The brand a product's words name, for its item specifics; "Unbranded" when none does. */
export const BRAND_WORDS: Readonly<Record<string, string>> = {
  airpods: 'Apple', apple: 'Apple', barbie: 'Mattel', bose: 'Bose', canon: 'Canon', charizard: 'Pokémon', dyson: 'Dyson', funko: 'Funko',
  gopro: 'GoPro', imac: 'Apple', ipad: 'Apple', iphone: 'Apple', kindle: 'Amazon', lego: 'LEGO', macbook: 'Apple', makita: 'Makita',
  matchbox: 'Matchbox', nikon: 'Nikon', nintendo: 'Nintendo', playstation: 'Sony', pokemon: 'Pokémon', ps4: 'Sony', ps5: 'Sony', pyrex: 'Pyrex',
  samsung: 'Samsung', sony: 'Sony', topps: 'Topps', wheels: 'Hot Wheels', xbox: 'Microsoft',
};

/** The two levels of a product's category path, per family. */
export const CATEGORY_PATHS: Readonly<Record<ProductFamily, (brand: string) => [string, string]>> = {
  device: (brand) => ['Consumer Electronics', brand === 'Unbranded' ? 'Other Electronics' : `${brand} Electronics`],
  collectible: (brand) => ['Collectibles', brand === 'Unbranded' ? 'Other Collectibles' : `${brand} Collectibles`],
  goods: (brand) => ['Home & Garden', brand === 'Unbranded' ? 'Other Home & Garden' : `${brand} Home & Garden`],
};

/** A range a product's figure is drawn from, evenly. */
export type Range = readonly [number, number];

/**
 * The shares of a search's listings that are not a clean sale of one unit, as ranges a product's
 * own shares are drawn from (each product has its own). `flooded` is the chance a product's main
 * pollution (accessories for devices, lots for collectibles and goods) is drawn from `floodedRange`
 * instead: the searches whose naive median is far off.
 */
export interface PollutionRanges {
  accessory: Range;
  lot: Range;
  forParts: Range;
  refurbished: Range;
  /** Of the working single units, the share sold new. */
  newShare: Range;
  /** Of sold listings, the share sold by an accepted best offer. */
  bestOfferAccepted: Range;
  typo: Range;
  flooded: number;
  floodedRange: Range;
  /** Which share a flood raises. */
  floodedShare: 'accessory' | 'lot';
}

export interface FamilyTraits {
  /** The new price of a product, evenly on a log scale. */
  newPrice: Range;
  /** Used against new. */
  usedFactor: Range;
  pollution: PollutionRanges;
  /** Units in a lot. */
  lotSize: Range;
  /** A lot's price per unit against a single's. */
  lotDiscount: Range;
}

export const FAMILY_TRAITS: Readonly<Record<ProductFamily, FamilyTraits>> = {
  device: {
    newPrice: [40, 2000],
    usedFactor: [0.68, 0.82],
    pollution: {
      accessory: [0.12, 0.32], lot: [0, 0.03], forParts: [0.03, 0.1], refurbished: [0, 0.1], newShare: [0.2, 0.5],
      bestOfferAccepted: [0.06, 0.2], typo: [0.01, 0.02], flooded: 0.2, floodedRange: [0.5, 0.65], floodedShare: 'accessory',
    },
    lotSize: [2, 4],
    lotDiscount: [0.75, 0.95],
  },
  collectible: {
    newPrice: [3, 250],
    usedFactor: [0.7, 0.85],
    pollution: {
      accessory: [0.01, 0.06], lot: [0.08, 0.35], forParts: [0, 0.03], refurbished: [0, 0], newShare: [0.2, 0.6],
      bestOfferAccepted: [0.03, 0.15], typo: [0.01, 0.02], flooded: 0.25, floodedRange: [0.5, 0.65], floodedShare: 'lot',
    },
    lotSize: [2, 12],
    lotDiscount: [0.55, 0.85],
  },
  goods: {
    newPrice: [8, 400],
    usedFactor: [0.65, 0.8],
    pollution: {
      accessory: [0.02, 0.1], lot: [0.03, 0.15], forParts: [0.01, 0.05], refurbished: [0, 0.03], newShare: [0.3, 0.6],
      bestOfferAccepted: [0.05, 0.15], typo: [0.01, 0.02], flooded: 0.1, floodedRange: [0.45, 0.6], floodedShare: 'lot',
    },
    lotSize: [2, 6],
    lotDiscount: [0.7, 0.9],
  },
};

/** A product's price spread: the standard deviation of its log prices (about 15 %). */
export const PRICE_SPREAD: Range = [0.13, 0.17];
/** A product's price drifts over the 90 days of sold listings by this much, up or down (log). */
export const PRICE_TREND: Range = [-0.06, 0.06];

/** What accessories sell for, against the product's new price; the things each family's searches draw. */
export type AccessoryType = 'case' | 'cover' | 'charger' | 'cable' | 'stand' | 'box' | 'manual' | 'part' | 'display' | 'sleeve';

export const ACCESSORY_PRICE_SHARES: Readonly<Record<AccessoryType, Range>> = {
  case: [0.03, 0.08], cover: [0.02, 0.06], charger: [0.04, 0.1], cable: [0.015, 0.04], stand: [0.03, 0.08], box: [0.02, 0.06],
  manual: [0.01, 0.03], part: [0.06, 0.2], display: [0.15, 0.5], sleeve: [0.05, 0.2],
};

/** Accessories are rarely cheaper than this, whatever they are for. */
export const ACCESSORY_FLOOR: Range = [1.49, 4.99];

export const FAMILY_ACCESSORIES: Readonly<Record<ProductFamily, readonly AccessoryType[]>> = {
  device: ['case', 'case', 'cover', 'charger', 'cable', 'stand', 'box', 'box', 'manual', 'part'],
  collectible: ['display', 'display', 'sleeve', 'box', 'stand'],
  goods: ['cover', 'box', 'manual', 'part', 'stand'],
};

/** A broken unit sells for this share of a working used one. */
export const FOR_PARTS_FACTOR: Range = [0.2, 0.5];
/** An accepted best offer was this much below the asking price the row shows. */
export const BEST_OFFER_DISCOUNT: Range = [0.06, 0.25];

/**
 * The products of the simulator's own catalogue: what category pages list, and what an id stands
 * for when no search this simulator served listed it.
 */
export const CATALOGUE = [
  'sony wh-1000xm4', 'nintendo switch oled', 'iphone 13', 'canon ae-1 camera', 'lego star wars minifigure', 'pokemon charizard card',
  'pyrex mixing bowl', 'levis 501 jeans', 'seiko 5 watch', 'makita cordless drill', 'dyson v8 vacuum', 'fender stratocaster guitar',
  'champion reverse weave sweatshirt', 'hot wheels redline', 'funko pop', 'ceramic teapot', 'kitchenaid stand mixer', 'gopro hero 9',
  'kindle paperwhite', 'north face jacket', 'nike air max 90', 'pink floyd vinyl lp', 'zippo lighter', 'casio g-shock watch',
  'bose quietcomfort 35', 'airpods pro', 'ps5 console', 'xbox series x', 'le creuset dutch oven', 'barbie doll',
] as const;
