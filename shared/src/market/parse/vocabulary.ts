/**
 * The marketplace's words, in the languages its eight sites (and its translated interfaces on
 * them) use. Compared case-insensitively after whitespace is collapsed. English and German are
 * proven on saved pages; French, Italian, Spanish and Japanese follow the marketplace's own
 * wording where a saved page showed it, and its usual translations where none did.
 */

/** The first word(s) of a sold caption: "Sold  Mar 7, 2026", "Verkauft  3. Okt. 2025", "販売済み  Jan 9, 2026". */
export const SOLD_WORDS = ['sold', 'verkauft', 'vendu', 'vendue', 'venduto', 'venduta', 'vendido', 'vendida', '販売済み'];

/** Captions of listings that ended without a sale. */
export const ENDED_WORDS = ['ended', 'beendet', 'terminé', 'terminée', 'terminato', 'terminata', 'finalizado', 'finalizada', '終了'];

/** Connecting words between the sold word and its date ("Vendu le 3 oct. 2025"). */
export const DATE_PARTICLES = ['on', 'am', 'le', 'il', 'el', 'の'];

/**
 * The "results matching fewer words" divider. Other notices share its class (international
 * sellers, "we simplified your search"), so only these texts make a divider.
 */
export const LOOSE_DIVIDER_TEXTS = [
  'results matching fewer words',
  'ergebnisse für weniger suchbegriffe',
  'résultats correspondant à moins de mots',
  'résultats avec moins de mots',
  'risultati corrispondenti a meno parole',
  'risultati con meno parole',
  'resultados que coinciden con menos palabras',
  'resultados con menos palabras',
  '一部の語句に一致する結果',
];

export const NEW_LISTING_BADGES = ['new listing', 'neues angebot', 'nouvelle annonce', 'nuova inserzione', 'nuevo anuncio', '新規出品'];

export const OPENS_IN_NEW_WINDOW = [
  'opens in a new window or tab',
  'wird in neuem fenster oder tab geöffnet',
  "s'ouvre dans une nouvelle fenêtre ou un nouvel onglet",
  'si apre in una nuova finestra o scheda',
  'se abre en una nueva ventana o pestaña',
  '新しいウィンドウまたはタブに表示されます',
];

/** Rows that mark a fixed-price listing. */
export const BUY_IT_NOW_TEXTS = [
  'buy it now',
  'sofort-kaufen',
  'achat immédiat',
  'compralo subito',
  '¡cómpralo ahora!',
  'cómpralo ahora',
  '¡cómpralo ya!',
  'cómpralo ya',
  '今すぐ買う',
];

export const OR_BEST_OFFER_TEXTS = [
  'or best offer',
  'oder preisvorschlag',
  'ou offre directe',
  'ou meilleure offre',
  "o proposta d'acquisto",
  'o mejor oferta',
  'またはベストオファー',
];

export const BEST_OFFER_ACCEPTED_TEXTS = [
  'best offer accepted',
  'preisvorschlag angenommen',
  'offre directe acceptée',
  'meilleure offre acceptée',
  "proposta d'acquisto accettata",
  'offerta accettata',
  'mejor oferta aceptada',
  'oferta aceptada',
  'ベストオファー対応',
];

/** "7 bids", "1 Gebot", "3 enchères", "5 offerte", "2 pujas", "8 ofertas de subasta", "7件の入札". */
export const BID_COUNT_PATTERN = /(\d[\d.,]*)\s*(?:bids?|gebote?|enchères?|offerte?|pujas?|ofertas de subasta|件の入札)(?![a-z])/i;

/** Korean ("+배송비 KRW36,330.95") is the marketplace's translated interface on its English sites. */
export const SHIPPING_WORDS = ['delivery', 'shipping', 'postage', 'versand', 'lieferung', 'livraison', 'frais de port', 'spedizione', 'envío', 'envio', '送料', '配送', '배송'];

export const FREE_WORDS = ['free', 'kostenlos', 'kostenloser', 'gratuit', 'gratuite', 'gratuita', 'gratis', '無料', '무료'];

/** Shipping the page says it does not know. */
export const SHIPPING_UNKNOWN_TEXTS = ['not specified', 'nicht angegeben', 'non spécifié', 'non specificat', 'no especificado', '指定なし'];

/** Prefixes of the location row, removed from the value ("from Germany" becomes "Germany"). */
export const LOCATION_PREFIXES = [
  'located in ',
  'location: ',
  'item location: ',
  'from ',
  'standort: ',
  'aus ',
  'situé en ',
  'situé à ',
  'depuis ',
  'de ',
  'da ',
  'si trova in ',
  'desde ',
  'ubicado en ',
  '発送元 ',
];

/** Item pages label the location inside the shipping section. */
export const ITEM_LOCATION_PREFIXES = [
  'located in:',
  'item location:',
  'standort:',
  'artikelstandort:',
  "lieu où se trouve l'objet :",
  "lieu où se trouve l'objet:",
  'si trova in:',
  'oggetto che si trova a:',
  'ubicado en:',
  'ubicación del artículo:',
  '所在地:',
];

/** "99.8% positive", "100% positiv", "100 % d'évaluations positives", "98,5% positivo", "100% ポジティブ". */
export const POSITIVE_PERCENT_PATTERN = /(\d{1,3}(?:[.,]\d+)?)\s*%/;

/** Not-found pages of the item view, when the marketplace answers them with 200. */
export const ITEM_NOT_FOUND_TEXTS = [
  'we looked everywhere',
  "the item you're looking for",
  'this listing was ended by the seller because the item is no longer available',
  'dieser artikel ist nicht mehr verfügbar',
  'wir haben überall gesucht',
  "l'objet que vous recherchez",
  "l'oggetto che stai cercando",
  'el artículo que buscas',
];

/** Phrases of item pages whose listing sold, or ended. */
export const ITEM_SOLD_TEXTS = ['this listing sold on', 'dieser artikel wurde verkauft', 'cet objet a été vendu', 'questo oggetto è stato venduto', 'este artículo se vendió', 'this item sold on'];
export const ITEM_ENDED_TEXTS = ['this listing ended on', 'bidding has ended', 'dieses angebot wurde beendet', 'cette annonce est terminée', 'questa inserzione è terminata', 'este anuncio ha finalizado', 'this listing was ended'];
