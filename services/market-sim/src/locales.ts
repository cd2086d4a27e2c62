import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { ConditionGroup } from './pollution.js';
import type { TitleLanguage } from './title-words.js';

/** How a site writes things: its language, money, dates and the marketplace's labels. */
export interface SiteLocale {
  lang: string;
  /** The language sellers write titles in. */
  titleLanguage: TitleLanguage;
  country: string;
  money(value: number): string;
  count(value: number): string;
  soldCaption(date: Date): string;
  endedCaption(date: Date): string;
  heading(total: number, keyword: string): string;
  rangeWord: string;
  newListing: string;
  opensInNewWindow: string;
  titleSuffix: string;
  looseDivider: string;
  shipping(cost: string): string;
  freeShipping: string;
  located(country: string): string;
  bids(count: number): string;
  buyItNow: string;
  orBestOffer: string;
  bestOfferAccepted: string;
  /** The condition texts the site shows, per group, as its pages write them. */
  conditions: Readonly<Record<ConditionGroup, string>>;
  /** A seller's share of positive feedback: "99.5%", "99,5 %". */
  percent(value: number): string;
  sellerFeedback(percent: number, score: string): string;
  itemNumberLabel: string;
  shippingLabel: string;
  locationLabel: string;
  sold(count: number): string;
  soldMessage(date: Date): string;
  endedMessage(date: Date): string;
  notFound: { title: string; text: string };
  countries: readonly string[];
}

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DE_MONTHS = ['Jan.', 'Feb.', 'Mär.', 'Apr.', 'Mai', 'Jun.', 'Jul.', 'Aug.', 'Sep.', 'Okt.', 'Nov.', 'Dez.'];
const FR_MONTHS = ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'];
const IT_MONTHS = ['gen', 'feb', 'mar', 'apr', 'mag', 'giu', 'lug', 'ago', 'set', 'ott', 'nov', 'dic'];
const ES_MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'];

function grouped(value: number, decimals: number, thousands: string, decimal: string): string {
  const [whole, fraction] = value.toFixed(decimals).split('.');
  const withGroups = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return fraction === undefined ? withGroups : `${withGroups}${decimal}${fraction}`;
}

const monthDayYear = (months: string[]) => (date: Date) => `${months[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
const dayMonthYear = (months: string[], dot = false) => (date: Date) =>
  `${date.getUTCDate()}${dot ? '.' : ''} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`;

/** One decimal at most, written with the site's decimal mark, with or without a space before the sign. */
const percentage = (decimal: string, beforeSign = '') => (value: number) => `${value.toFixed(1).replace(/\.0$/, '').replace('.', decimal)}${beforeSign}%`;
const pointPercent = percentage('.');
const commaPercent = percentage(',');
const spacedCommaPercent = percentage(',', ' ');

const usDate = monthDayYear(EN_MONTHS);
const ukDate = dayMonthYear(EN_MONTHS);
const dollars = (prefix: string) => (value: number) => `${prefix}${grouped(value, 2, ',', '.')}`;
const euros = (thousands: string) => (value: number) => `${grouped(value, 2, thousands, ',')} EUR`;

interface EnglishSite {
  lang: string;
  country: string;
  money: (value: number) => string;
  /** "7 Mar 2026" (UK, Australia) or "Mar 7, 2026" (US, Canada). */
  dayFirst: boolean;
  shippingWord: string;
  freeShipping: string;
  locatedPrefix: string;
  buyItNow: string;
  conditions: Readonly<Record<ConditionGroup, string>>;
  countries: readonly string[];
}

/** The four English-language sites differ only in these details. */
function englishLocale(site: EnglishSite): SiteLocale {
  const date = site.dayFirst ? ukDate : usDate;
  return {
    lang: site.lang,
    titleLanguage: 'en',
    country: site.country,
    money: site.money,
    count: (value) => grouped(value, 0, ',', '.'),
    soldCaption: (day) => `Sold  ${date(day)}`,
    endedCaption: (day) => `Ended  ${date(day)}`,
    heading: (total, keyword) => `<span class="BOLD">${grouped(total, 0, ',', '.')}</span> results for <span class="BOLD">${keyword}</span>`,
    rangeWord: 'to',
    newListing: 'New Listing',
    opensInNewWindow: 'Opens in a new window or tab',
    titleSuffix: 'for sale | eBay',
    looseDivider: 'Results matching fewer words',
    shipping: (cost) => `+${cost} ${site.shippingWord}`,
    freeShipping: site.freeShipping,
    located: (country) => `${site.locatedPrefix} ${country}`,
    bids: (count) => (count === 1 ? '1 bid' : `${count} bids`),
    buyItNow: site.buyItNow,
    orBestOffer: 'or Best Offer',
    bestOfferAccepted: 'Best offer accepted',
    conditions: site.conditions,
    percent: pointPercent,
    sellerFeedback: (percent, score) => `${pointPercent(percent)} positive (${score})`,
    itemNumberLabel: 'eBay item number:',
    shippingLabel: 'Shipping:',
    locationLabel: 'Located in:',
    sold: (count) => `${count} sold`,
    soldMessage: (day) => `This listing sold on ${date(day)}.`,
    endedMessage: (day) => `This listing ended on ${date(day)}.`,
    notFound: { title: 'Error Page | eBay', text: "We looked everywhere. Looks like this page doesn't exist" },
    countries: site.countries,
  };
}

export const SITE_LOCALES: Readonly<Record<MarketSite, SiteLocale>> = {
  'market.com': englishLocale({ lang: 'en-US', country: 'United States', money: dollars('$'), dayFirst: false, shippingWord: 'delivery', freeShipping: 'Free delivery', locatedPrefix: 'Located in', buyItNow: 'Buy It Now', conditions: { new: 'Brand New', used: 'Pre-Owned', refurbished: 'Certified - Refurbished', forParts: 'For parts or not working' }, countries: ['China', 'Japan', 'United Kingdom', 'Canada', 'Germany'] }),
  'market.co.uk': englishLocale({ lang: 'en-GB', country: 'United Kingdom', money: dollars('£'), dayFirst: true, shippingWord: 'postage', freeShipping: 'Free postage', locatedPrefix: 'from', buyItNow: 'Buy it now', conditions: { new: 'Brand new', used: 'Pre-owned', refurbished: 'Refurbished', forParts: 'For parts or not working' }, countries: ['Germany', 'China', 'Japan', 'Ireland', 'United States'] }),
  'market.de': {
    lang: 'de-DE',
    titleLanguage: 'de',
    rangeWord: 'bis',
    newListing: 'Neues Angebot',
    opensInNewWindow: 'Wird in neuem Fenster oder Tab geöffnet',
    country: 'Deutschland',
    money: (value) => `EUR ${grouped(value, 2, '.', ',')}`,
    count: (value) => grouped(value, 0, '.', ','),
    soldCaption: (date) => `Verkauft  ${dayMonthYear(DE_MONTHS, true)(date)}`,
    endedCaption: (date) => `Beendet  ${dayMonthYear(DE_MONTHS, true)(date)}`,
    heading: (total, keyword) => `<span class="BOLD">${grouped(total, 0, '.', ',')}</span> Ergebnisse für <span class="BOLD">${keyword}</span>`,
    titleSuffix: 'online kaufen | eBay',
    looseDivider: 'Ergebnisse für weniger Suchbegriffe',
    shipping: (cost) => `+${cost} Versand`,
    freeShipping: 'Kostenloser Versand',
    located: (country) => `aus ${country}`,
    bids: (count) => (count === 1 ? '1 Gebot' : `${count} Gebote`),
    buyItNow: 'Sofort-Kaufen',
    orBestOffer: 'oder Preisvorschlag',
    bestOfferAccepted: 'Preisvorschlag angenommen',
    conditions: { new: 'Neu', used: 'Gebraucht', refurbished: 'Vom Verkäufer generalüberholt', forParts: 'Als Ersatzteil / defekt' },
    percent: spacedCommaPercent,
    sellerFeedback: (percent, score) => `${spacedCommaPercent(percent)} positiv (${score.replace('.', ',')})`,
    itemNumberLabel: 'eBay-Artikelnr.:',
    shippingLabel: 'Versand:',
    locationLabel: 'Standort:',
    sold: (count) => `${count} verkauft`,
    soldMessage: (date) => `Dieser Artikel wurde verkauft am ${dayMonthYear(DE_MONTHS, true)(date)}.`,
    endedMessage: (date) => `Dieses Angebot wurde beendet am ${dayMonthYear(DE_MONTHS, true)(date)}.`,
    notFound: { title: 'Fehlerseite | eBay', text: 'Wir haben überall gesucht. Dieser Artikel ist nicht mehr verfügbar.' },
    countries: ['China', 'Großbritannien', 'Polen', 'Frankreich', 'Österreich'],
  },
  'market.fr': {
    lang: 'fr-FR',
    titleLanguage: 'fr',
    rangeWord: 'à',
    newListing: 'Nouvelle annonce',
    opensInNewWindow: "S'ouvre dans une nouvelle fenêtre ou un nouvel onglet",
    country: 'France',
    money: euros('\u202f'),
    count: (value) => grouped(value, 0, '\u202f', ','),
    soldCaption: (date) => `Vendu le ${dayMonthYear(FR_MONTHS)(date)}`,
    endedCaption: (date) => `Terminé le ${dayMonthYear(FR_MONTHS)(date)}`,
    heading: (total, keyword) => `<span class="BOLD">${grouped(total, 0, '\u202f', ',')}</span> résultats pour <span class="BOLD">${keyword}</span>`,
    titleSuffix: 'en vente | eBay',
    looseDivider: 'Résultats correspondant à moins de mots',
    shipping: (cost) => `+${cost} livraison`,
    freeShipping: 'Livraison gratuite',
    located: (country) => `de ${country}`,
    bids: (count) => (count === 1 ? '1 enchère' : `${count} enchères`),
    buyItNow: 'Achat immédiat',
    orBestOffer: 'ou Offre directe',
    bestOfferAccepted: 'Offre directe acceptée',
    conditions: { new: 'Neuf', used: 'Occasion', refurbished: 'Reconditionné par le vendeur', forParts: 'Pour pièces / ne fonctionne pas' },
    percent: spacedCommaPercent,
    sellerFeedback: (percent, score) => `${spacedCommaPercent(percent)} d'évaluations positives (${score.replace('.', ',')})`,
    itemNumberLabel: "Numéro de l'objet eBay :",
    shippingLabel: 'Livraison :',
    locationLabel: "Lieu où se trouve l'objet :",
    sold: (count) => `${count} vendus`,
    soldMessage: (date) => `Cet objet a été vendu le ${dayMonthYear(FR_MONTHS)(date)}.`,
    endedMessage: (date) => `Cette annonce est terminée depuis le ${dayMonthYear(FR_MONTHS)(date)}.`,
    notFound: { title: "Page d'erreur | eBay", text: "Nous avons cherché partout. L'objet que vous recherchez n'est plus disponible." },
    countries: ['Chine', 'Allemagne', 'Royaume-Uni', 'Italie', 'Belgique'],
  },
  'market.it': {
    lang: 'it-IT',
    titleLanguage: 'it',
    rangeWord: 'a',
    newListing: 'Nuova inserzione',
    opensInNewWindow: 'Si apre in una nuova finestra o scheda',
    country: 'Italia',
    money: euros('.'),
    count: (value) => grouped(value, 0, '.', ','),
    soldCaption: (date) => `Venduto il ${dayMonthYear(IT_MONTHS)(date)}`,
    endedCaption: (date) => `Terminata il ${dayMonthYear(IT_MONTHS)(date)}`,
    heading: (total, keyword) => `<span class="BOLD">${grouped(total, 0, '.', ',')}</span> risultati per <span class="BOLD">${keyword}</span>`,
    titleSuffix: 'in vendita | eBay',
    looseDivider: 'Risultati corrispondenti a meno parole',
    shipping: (cost) => `+${cost} spedizione`,
    freeShipping: 'Spedizione gratuita',
    located: (country) => `da ${country}`,
    bids: (count) => (count === 1 ? '1 offerta' : `${count} offerte`),
    buyItNow: 'Compralo Subito',
    orBestOffer: "o Proposta d'acquisto",
    bestOfferAccepted: "Proposta d'acquisto accettata",
    conditions: { new: 'Nuovo', used: 'Usato', refurbished: 'Ricondizionato dal venditore', forParts: 'Per ricambi o non funzionante' },
    percent: commaPercent,
    sellerFeedback: (percent, score) => `${commaPercent(percent)} di feedback positivi (${score.replace('.', ',')})`,
    itemNumberLabel: 'Numero oggetto eBay:',
    shippingLabel: 'Spedizione:',
    locationLabel: 'Si trova in:',
    sold: (count) => `${count} venduti`,
    soldMessage: (date) => `Questo oggetto è stato venduto il ${dayMonthYear(IT_MONTHS)(date)}.`,
    endedMessage: (date) => `Questa inserzione è terminata il ${dayMonthYear(IT_MONTHS)(date)}.`,
    notFound: { title: 'Pagina di errore | eBay', text: "Abbiamo cercato ovunque. L'oggetto che stai cercando non è più disponibile." },
    countries: ['Cina', 'Germania', 'Francia', 'Spagna', 'Regno Unito'],
  },
  'market.es': {
    lang: 'es-ES',
    titleLanguage: 'es',
    rangeWord: 'a',
    newListing: 'Nuevo anuncio',
    opensInNewWindow: 'Se abre en una nueva ventana o pestaña',
    country: 'España',
    money: euros('.'),
    count: (value) => grouped(value, 0, '.', ','),
    soldCaption: (date) => `Vendido el ${dayMonthYear(ES_MONTHS)(date)}`,
    endedCaption: (date) => `Finalizado el ${dayMonthYear(ES_MONTHS)(date)}`,
    heading: (total, keyword) => `<span class="BOLD">${grouped(total, 0, '.', ',')}</span> resultados para <span class="BOLD">${keyword}</span>`,
    titleSuffix: 'en venta | eBay',
    looseDivider: 'Resultados que coinciden con menos palabras',
    shipping: (cost) => `+${cost} envío`,
    freeShipping: 'Envío gratis',
    located: (country) => `de ${country}`,
    bids: (count) => (count === 1 ? '1 puja' : `${count} pujas`),
    buyItNow: '¡Cómpralo ya!',
    orBestOffer: 'o Mejor oferta',
    bestOfferAccepted: 'Mejor oferta aceptada',
    conditions: { new: 'Nuevo', used: 'De segunda mano', refurbished: 'Reacondicionado por el vendedor', forParts: 'Para piezas o no funciona' },
    percent: commaPercent,
    sellerFeedback: (percent, score) => `${commaPercent(percent)} de votos positivos (${score.replace('.', ',')})`,
    itemNumberLabel: 'Número de artículo de eBay:',
    shippingLabel: 'Envío:',
    locationLabel: 'Ubicado en:',
    sold: (count) => `${count} vendidos`,
    soldMessage: (date) => `Este artículo se vendió el ${dayMonthYear(ES_MONTHS)(date)}.`,
    endedMessage: (date) => `Este anuncio ha finalizado el ${dayMonthYear(ES_MONTHS)(date)}.`,
    notFound: { title: 'Página de error | eBay', text: 'Hemos buscado por todas partes. El artículo que buscas ya no está disponible.' },
    countries: ['China', 'Alemania', 'Reino Unido', 'Francia', 'Italia'],
  },
  'market.ca': englishLocale({ lang: 'en-CA', country: 'Canada', money: dollars('C $'), dayFirst: false, shippingWord: 'shipping', freeShipping: 'Free shipping', locatedPrefix: 'Located in', buyItNow: 'Buy It Now', conditions: { new: 'Brand New', used: 'Pre-Owned', refurbished: 'Certified - Refurbished', forParts: 'For parts or not working' }, countries: ['United States', 'China', 'Japan', 'United Kingdom'] }),
  'market.com.au': englishLocale({ lang: 'en-AU', country: 'Australia', money: dollars('AU $'), dayFirst: true, shippingWord: 'postage', freeShipping: 'Free postage', locatedPrefix: 'from', buyItNow: 'Buy It Now', conditions: { new: 'Brand new', used: 'Pre-owned', refurbished: 'Refurbished', forParts: 'For parts or not working' }, countries: ['China', 'United States', 'New Zealand', 'Japan'] }),
};
