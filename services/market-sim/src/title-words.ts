import type { ConditionGroup } from './pollution.js';
import type { AccessoryType, ProductFamily } from './product-words.js';

/**
 * The words sellers put in titles, per language of the sites (market.de German, market.fr French,
 * market.it Italian, market.es Spanish, the others English). `{p}` stands for the product as the
 * title names it, `{n}` for a lot's size. Words that mark a listing as something other than one
 * working unit (accessory nouns before "for", lot words, "for parts") appear only in the patterns
 * of those listings, never among the words of a clean sale.
 */
export type TitleLanguage = 'en' | 'de' | 'fr' | 'it' | 'es';

export interface TitleWords {
  colours: readonly string[];
  /** Said of a working unit, per family: "Tested", "with Box", "OVP", "Rare". */
  qualifiers: Readonly<Record<ProductFamily, readonly string[]>>;
  /** The condition, as some sellers also write it in the title. */
  conditions: Readonly<Record<ConditionGroup, readonly string[]>>;
  /** Accessories for the product, each a pattern with `{p}`. */
  accessories: Readonly<Record<AccessoryType, readonly string[]>>;
  /** Lots that state their size (`{n}`), and lots that do not. */
  sizedLots: readonly string[];
  unsizedLots: readonly string[];
}

export const TITLE_WORDS: Readonly<Record<TitleLanguage, TitleWords>> = {
  en: {
    colours: ['Black', 'White', 'Silver', 'Blue', 'Red', 'Grey', 'Green', 'Gold', 'Pink'],
    qualifiers: {
      device: ['Tested', 'Works Great', 'Fully Working', 'with Box', 'Boxed', 'Complete', 'Original', 'Genuine', 'with Charger', 'with Case', 'Unlocked'],
      collectible: ['Rare', 'Vintage', 'Mint', 'NM', 'Original', 'Authentic', 'Collectible', 'in Box', 'HTF', 'Retired'],
      goods: ['Vintage', 'Handmade', 'Large', 'Small', 'Original', 'Classic', 'Retro', 'Heavy Duty'],
    },
    conditions: {
      new: ['New', 'Brand New', 'NEW', 'New Sealed', 'Sealed', 'BNIB', 'NIB'],
      used: ['Used', 'Pre-Owned', 'Good Condition', 'Excellent Condition'],
      refurbished: ['Refurbished', 'Certified Refurbished', 'Grade A Refurbished'],
      forParts: ['for parts or not working', 'For Parts', 'Not Working', 'Broken', 'Spares or Repair', 'AS IS', 'Faulty for Parts'],
    },
    accessories: {
      case: ['Case for {p}', 'Hard Carrying Case for {p}', 'Protective Case for {p}'],
      cover: ['Silicone Cover for {p}', 'Skin Cover for {p}'],
      charger: ['Charger for {p}', 'AC Adapter Charger for {p}'],
      cable: ['Charging Cable for {p}', 'USB Cable for {p}'],
      stand: ['Stand for {p}', 'Charging Dock Stand for {p}'],
      box: ['{p} Box Only', '{p} Empty Box', 'Empty Box for {p}'],
      manual: ['Manual for {p}', 'Instruction Manual for {p}'],
      part: ['Replacement Battery for {p}', 'Replacement Screen for {p}', 'Replacement Part for {p}'],
      display: ['Display Case for {p}', 'Acrylic Display Case for {p}', 'Display Stand for {p}'],
      sleeve: ['Protector Sleeves for {p}', 'Protective Sleeve for {p}'],
    },
    sizedLots: ['Lot of {n} {p}', '{n}x {p}', '{p} Lot of {n}', '{p} x{n}', 'Bundle of {n} {p}', 'Set of {n} {p}', '{n} pcs {p}'],
    unsizedLots: ['{p} Bundle', '{p} Job Lot', 'Huge Lot {p}', '{p} Lot', 'Bulk Lot {p}'],
  },
  de: {
    colours: ['Schwarz', 'Weiß', 'Silber', 'Blau', 'Rot', 'Grau', 'Grün', 'Gold', 'Rosa'],
    qualifiers: {
      device: ['getestet', 'OVP', 'mit OVP', 'Originalverpackung', 'komplett', 'Original', 'funktioniert', 'mit Ladekabel', 'Top Zustand', 'voll funktionsfähig'],
      collectible: ['selten', 'Rarität', 'Original', 'OVP', 'Sammlerstück', 'Vintage'],
      goods: ['Vintage', 'handgemacht', 'groß', 'klein', 'Original', 'Retro', 'Klassiker'],
    },
    conditions: {
      new: ['Neu', 'NEU', 'Neu OVP', 'NEU & OVP', 'neu und versiegelt'],
      used: ['gebraucht', 'Gebraucht', 'guter Zustand', 'sehr guter Zustand'],
      refurbished: ['generalüberholt', 'Refurbished', 'Generalüberholt'],
      forParts: ['defekt', 'Defekt', 'für Bastler', 'defekt für Bastler', 'DEFEKT'],
    },
    accessories: {
      case: ['Hülle für {p}', 'Tasche für {p}', 'Schutzhülle für {p}'],
      cover: ['Cover für {p}', 'Silikon Hülle für {p}'],
      charger: ['Ladegerät für {p}', 'Netzteil für {p}'],
      cable: ['Ladekabel für {p}', 'USB Kabel für {p}'],
      stand: ['Ständer für {p}', 'Halterung für {p}'],
      box: ['{p} leere OVP', '{p} nur OVP', 'Leerkarton für {p}'],
      manual: ['Anleitung für {p}', 'Bedienungsanleitung für {p}'],
      part: ['Ersatzakku für {p}', 'Ersatzteil für {p}', 'Ersatz Display für {p}'],
      display: ['Vitrine für {p}', 'Display Box für {p}'],
      sleeve: ['Schutzhüllen für {p}'],
    },
    sizedLots: ['{n}x {p}', '{p} {n} Stück', 'Konvolut {n}x {p}', '{n} Stück {p}'],
    unsizedLots: ['Konvolut {p}', '{p} Sammlung Konvolut', '{p} Paket'],
  },
  fr: {
    colours: ['Noir', 'Blanc', 'Argent', 'Bleu', 'Rouge', 'Gris', 'Vert', 'Or', 'Rose'],
    qualifiers: {
      device: ['testé', 'fonctionne', 'avec boîte', 'en boîte', 'complet', 'original', 'avec chargeur', 'très bon état', 'débloqué'],
      collectible: ['rare', 'vintage', 'collection', 'original', 'en boîte', 'authentique'],
      goods: ['vintage', 'fait main', 'grand', 'petit', 'original', 'rétro'],
    },
    conditions: {
      new: ['neuf', 'NEUF', 'neuf sous blister', 'Neuf scellé'],
      used: ['occasion', 'bon état', 'très bon état'],
      refurbished: ['reconditionné', 'Reconditionné'],
      forParts: ['pour pièces', 'HS', 'ne fonctionne pas', 'en panne pour pièces'],
    },
    accessories: {
      case: ['Coque pour {p}', 'Housse pour {p}', 'Étui pour {p}'],
      cover: ['Coque silicone pour {p}'],
      charger: ['Chargeur pour {p}', 'Adaptateur secteur pour {p}'],
      cable: ['Câble de charge pour {p}', 'Câble USB pour {p}'],
      stand: ['Support pour {p}', 'Socle pour {p}'],
      box: ['{p} boîte vide', 'Boîte vide pour {p}'],
      manual: ['Notice pour {p}', "Mode d'emploi pour {p}"],
      part: ['Batterie de remplacement pour {p}', 'Pièce de rechange pour {p}'],
      display: ['Vitrine pour {p}', 'Boîte de présentation pour {p}'],
      sleeve: ['Protège-cartes pour {p}'],
    },
    sizedLots: ['Lot de {n} {p}', '{n}x {p}', '{p} lot de {n}'],
    unsizedLots: ['Lot {p}', 'Gros lot {p}', '{p} en lot'],
  },
  it: {
    colours: ['Nero', 'Bianco', 'Argento', 'Blu', 'Rosso', 'Grigio', 'Verde', 'Oro', 'Rosa'],
    qualifiers: {
      device: ['testato', 'funzionante', 'con scatola', 'completo', 'originale', 'con caricatore', 'ottime condizioni', 'perfetto'],
      collectible: ['raro', 'vintage', 'da collezione', 'originale', 'con scatola', 'introvabile'],
      goods: ['vintage', 'fatto a mano', 'grande', 'piccolo', 'originale', 'retrò'],
    },
    conditions: {
      new: ['nuovo', 'NUOVO', 'nuovo sigillato', 'Nuovo originale'],
      used: ['usato', 'buone condizioni', 'ottime condizioni'],
      refurbished: ['ricondizionato', 'Ricondizionato'],
      forParts: ['per ricambi', 'non funzionante', 'guasto per ricambi'],
    },
    accessories: {
      case: ['Custodia per {p}', 'Custodia rigida per {p}'],
      cover: ['Cover per {p}', 'Cover in silicone per {p}'],
      charger: ['Caricatore per {p}', 'Alimentatore per {p}'],
      cable: ['Cavo di ricarica per {p}', 'Cavo USB per {p}'],
      stand: ['Supporto per {p}', 'Base di ricarica per {p}'],
      box: ['{p} scatola vuota', 'Scatola vuota per {p}', 'Solo scatola {p}'],
      manual: ['Manuale per {p}', 'Libretto istruzioni per {p}'],
      part: ['Batteria di ricambio per {p}', 'Ricambio per {p}'],
      display: ['Teca per {p}', 'Espositore per {p}'],
      sleeve: ['Bustine protettive per {p}'],
    },
    sizedLots: ['Lotto di {n} {p}', '{n}x {p}', '{p} lotto di {n}', 'Stock {n} {p}'],
    unsizedLots: ['Lotto {p}', 'Stock {p}', 'Blocco {p}'],
  },
  es: {
    colours: ['Negro', 'Blanco', 'Plata', 'Azul', 'Rojo', 'Gris', 'Verde', 'Oro', 'Rosa'],
    qualifiers: {
      device: ['probado', 'funciona', 'con caja', 'completo', 'original', 'con cargador', 'muy buen estado', 'libre'],
      collectible: ['raro', 'vintage', 'de colección', 'original', 'con caja', 'difícil de encontrar'],
      goods: ['vintage', 'hecho a mano', 'grande', 'pequeño', 'original', 'retro'],
    },
    conditions: {
      new: ['nuevo', 'NUEVO', 'nuevo precintado', 'Nuevo a estrenar'],
      used: ['usado', 'buen estado', 'muy buen estado'],
      refurbished: ['reacondicionado', 'Reacondicionado'],
      forParts: ['para piezas', 'no funciona', 'averiado para piezas'],
    },
    accessories: {
      case: ['Funda para {p}', 'Estuche para {p}'],
      cover: ['Carcasa para {p}', 'Funda de silicona para {p}'],
      charger: ['Cargador para {p}', 'Adaptador de corriente para {p}'],
      cable: ['Cable de carga para {p}', 'Cable USB para {p}'],
      stand: ['Soporte para {p}', 'Base de carga para {p}'],
      box: ['{p} caja vacía', 'Caja vacía para {p}', 'Solo caja {p}'],
      manual: ['Manual para {p}', 'Manual de instrucciones para {p}'],
      part: ['Batería de repuesto para {p}', 'Repuesto para {p}'],
      display: ['Vitrina para {p}', 'Expositor para {p}'],
      sleeve: ['Fundas protectoras para {p}'],
    },
    sizedLots: ['Lote de {n} {p}', '{n}x {p}', '{p} lote de {n}', 'Pack de {n} {p}'],
    unsizedLots: ['Lote {p}', 'Pack {p}', 'Gran lote {p}'],
  },
};

/** Words that make a collectible a trading card, whose titles carry card numbers and grades ("4/102", "PSA 9"). */
export const CARD_WORDS: ReadonlySet<string> = new Set(['card', 'cards', 'charizard', 'mtg', 'pikachu', 'pokemon', 'tcg', 'topps', 'yugioh']);

/** How sellers join a title's parts. */
export const TITLE_SEPARATORS = [' ', ' ', ' ', ' - ', ' | ', ', '] as const;

/** Titles stop growing at the marketplace's 80 characters. */
export const TITLE_MAX_LENGTH = 80;
