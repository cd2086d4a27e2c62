import type { ConditionGroup } from '../contract/comps.js';

/**
 * The words `classify.ts` reads listings with, as data. Each entry is a phrase of whole words,
 * matched case- and accent-insensitively ("pieces" finds "pièces"), words being runs of letters
 * and digits: "pre owned" finds "Pre-Owned", "owner s manual" finds "Owner's Manual", and "*"
 * stands for any one word. Built from the titles and condition texts of the saved marketplace
 * pages (shared/fixtures/market) and the marketplace's condition names on its eight sites.
 *
 * Titles mix languages whatever the site (English titles on market.de, Spanish ones on market.com
 * served in Spanish), so every list applies on every site, except the few short words that mean
 * something else in another language (`FOR_PARTS_TITLE_BY_LANGUAGE`).
 */

export type TitleLanguage = 'en' | 'de' | 'fr' | 'it' | 'es';

/**
 * The condition groups from the page's condition text, tried in this order: a refurbished item
 * may be graded "Very Good", and an open box says "never used", so the more specific groups come
 * first. CJK entries are matched as substrings (those scripts put no spaces between words).
 */
export const CONDITION_TEXT_GROUPS: ReadonlyArray<{ group: ConditionGroup; phrases: readonly string[] }> = [
  {
    group: 'forParts',
    phrases: [
      'for parts', 'parts only', 'not working', 'spares or repair',
      'als ersatzteil', 'defekt', 'pour pièces', 'ne fonctionne pas',
      'per ricambi', 'non funzionante', 'para piezas', 'solo piezas', 'no funciona', 'para desguace',
      'ジャンク', '部品取り',
    ],
  },
  {
    group: 'refurbished',
    phrases: [
      'refurbished', 'remanufactured', 'renewed',
      'generalüberholt', 'reconditionné', 'reconditionnée', 'ricondizionato', 'reacondicionado', 'restaurado',
      '整備済',
    ],
  },
  {
    // Open-box wordings say "used" only to deny it.
    group: 'new',
    phrases: ['open box', 'never used', 'ouvert', 'jamais utilisé', 'aperto', 'mai usato', 'caja abierta', 'nunca usado', 'offene verpackung'],
  },
  {
    group: 'used',
    phrases: [
      'pre owned', 'preowned', 'used', 'like new', 'very good', 'good', 'acceptable', 'graded', 'ungraded',
      'gebraucht', 'wie neu', 'neuwertig', 'sehr gut', 'gut', 'akzeptabel',
      'occasion', 'comme neuf', 'très bon état', 'bon état', 'état correct',
      'usato', 'come nuovo', 'ottimo', 'ottime condizioni', 'buone condizioni', 'condizioni accettabili',
      'usado', 'de segunda mano', 'como nuevo', 'muy bueno', 'bueno', 'aceptable',
      '中古',
    ],
  },
  {
    group: 'new',
    phrases: ['new', 'brand new', 'neu', 'neuf', 'neuve', 'nuovo', 'nuova', 'nuevo', 'nueva', '新品', '未使用'],
  },
];

/**
 * The condition names the marketplace shows on its eight sites (and in the Japanese and Spanish
 * interfaces of market.com): nearly every listing carries one of these, so their groups are
 * tabled once instead of being read phrase by phrase for each listing.
 */
export const MARKETPLACE_CONDITION_NAMES: readonly string[] = [
  'Brand New', 'Brand new', 'New', 'New (Other)', 'New other (see details)', 'New with tags', 'New without tags', 'New with box', 'New without box',
  'New with defects', 'Open Box', 'Open box', 'Pre-Owned', 'Pre-owned', 'Used', 'Like New', 'Very Good', 'Good', 'Acceptable',
  'Certified - Refurbished', 'Excellent - Refurbished', 'Very Good - Refurbished', 'Good - Refurbished', 'Seller refurbished',
  'Manufacturer refurbished', 'Remanufactured', 'For parts or not working', 'Parts Only', 'Graded', 'Ungraded',
  'Neu', 'Neu mit Etikett', 'Neu ohne Etikett', 'Neu: Sonstige (siehe Artikelbeschreibung)', 'Neu mit Fehlern', 'Offene Verpackung', 'Gebraucht',
  'Neuwertig', 'Sehr gut', 'Gut', 'Akzeptabel', 'Generalüberholt', 'Vom Hersteller generalüberholt', 'Vom Verkäufer generalüberholt',
  'Als Ersatzteil / defekt',
  'Neuf', 'Neuf avec étiquettes', 'Neuf sans étiquette', 'Neuf : Autre (voir détails)', 'Ouvert – jamais utilisé', 'Occasion', 'Comme neuf',
  'Très bon état', 'Bon état', 'État correct', 'Reconditionné', 'Reconditionné par le fabricant', 'Reconditionné par le vendeur',
  'Pour pièces détachées ou ne fonctionne pas',
  'Nuovo', 'Nuovo con cartellino', 'Nuovo senza cartellino', 'Nuovo: Altro (vedi dettagli)', 'Aperto - mai usato', 'Usato', 'Come nuovo',
  'Ottime condizioni', 'Buone condizioni', 'Condizioni accettabili', 'Ricondizionato', 'Ricondizionato dal produttore', 'Ricondizionato dal venditore',
  'Per ricambi o non funzionante',
  'Nuevo', 'Nuevo con etiquetas', 'Nuevo sin etiquetas', 'Nuevo: otro (ver detalles)', 'Nuevo (otro)', 'Totalmente nuevo', 'Usado', 'De segunda mano',
  'Como nuevo', 'Muy bueno', 'Bueno', 'Aceptable', 'Reacondicionado', 'Restaurado por el fabricante', 'Restaurado por el vendedor',
  'Para piezas o no funciona',
  '真新しい新品', '新品 (その他)', '中古品', 'ジャンク品',
];

/** A title that says the item is broken or sold for parts, whatever its condition text says. */
export const FOR_PARTS_TITLE: readonly string[] = [
  // English
  'for parts', 'parts only', 'parts or repair', 'parts repair', 'for repair', 'not working', 'non working',
  'doesn t work', 'doesnt work', 'does not work', 'won t turn on', 'wont turn on', 'does not turn on', 'broken', 'faulty',
  'spares or repair', 'spares or repairs', 'spares repair', 'spares repairs', 'spares and repairs', 'for spares', 'as is',
  // a defect, then "parts": "Screen Cracked PARTS"
  'cracked parts', 'damaged parts', 'dead parts',
  // German
  'defekt', 'defekte', 'defekter', 'defektes', 'defekten', 'für bastler', 'bastlerware', 'als ersatzteil', 'ersatzteilspender',
  'funktioniert nicht', 'ohne funktion', 'startet nicht', 'geht nicht',
  // French
  'pour pièces', 'hors service', 'en panne', 'ne fonctionne pas', 'ne marche pas', 'ne s allume pas', 'défectueux', 'défectueuse',
  // Italian
  'per ricambi', 'non funzionante', 'non funziona', 'guasto', 'guasta', 'guasti', 'guaste', 'da riparare', 'non si accende', 'non si accendono',
  // Spanish
  'para piezas', 'para repuesto', 'para repuestos', 'para reparar', 'no funciona', 'averiado', 'averiada', 'averiados', 'averiadas',
  'no enciende', 'no encienden', 'para desguace', 'defectuoso', 'defectuosa',
];

/** Short words that mean "broken" in one language only ("HS" is HeartGold SoulSilver in an English title). */
export const FOR_PARTS_TITLE_BY_LANGUAGE: Readonly<Partial<Record<TitleLanguage, readonly string[]>>> = {
  fr: ['hs'],
};

/**
 * Things sold *for* a product rather than the product: a title naming one of these (not as
 * something included: "with case") is an accessory. Kept to nouns that are rarely part of a
 * product's own name.
 */
export const ACCESSORY_NOUNS: readonly string[] = [
  // cases and covers
  'case', 'cases', 'carry case', 'carrying case', 'cover', 'covers', 'dust bag', 'screen protector', 'screen protectors', 'faceplate', 'faceplates',
  'hülle', 'hüllen', 'schutzhülle', 'schutzhüllen', 'etui', 'etuis', 'tasche', 'taschen', 'schutzfolie', 'schutzfolien',
  'coque', 'coques', 'housse', 'housses', 'protection écran', 'protège écran',
  'custodia', 'custodie', 'pellicola', 'pellicole',
  'funda', 'fundas', 'carcasa', 'carcasas', 'estuche', 'estuches', 'protector de pantalla',
  // power and cables
  'charger', 'chargers', 'charging cable', 'charging cables', 'charging dock', 'charging station', 'charging stations', 'power adapter', 'power adapters', 'ac adapter', 'ac adapters',
  'power supply', 'power supplies', 'power cord', 'power cords', 'cable', 'cables',
  'ladegerät', 'ladegeräte', 'netzteil', 'netzteile', 'ladekabel', 'kabel',
  'chargeur', 'chargeurs', 'câble', 'câbles', 'bloc d alimentation',
  'caricabatterie', 'caricatore', 'caricatori', 'alimentatore', 'alimentatori', 'cavo', 'cavi',
  'cargador', 'cargadores',
  // manuals
  'owner s manual', 'owners manual', 'user manual', 'instruction manual', 'instructions only', 'manual only',
  'bedienungsanleitung', 'betriebsanleitung', 'bauanleitung', 'bauanleitungen', 'anleitung', 'anleitungen',
  'notice', 'mode d emploi',
  'istruzioni', 'manuale',
  'instrucciones', 'manual de instrucciones',
  // replacement parts
  'replacement part', 'replacement parts', 'spare part', 'spare parts', 'lens cap', 'lens caps',
  'ear pad', 'ear pads', 'earpad', 'earpads', 'ear cushion', 'ear cushions', 'cushion', 'cushions',
  'ersatzteil', 'ersatzteile', 'ohrpolster',
  'pièce détachée', 'pièces détachées', 'coussinet', 'coussinets',
  'ricambi', 'ricambio', 'cuscinetti',
  'repuesto', 'repuestos', 'recambio', 'recambios', 'almohadilla', 'almohadillas',
  // vehicle parts, which flood a search for a vehicle
  'door panel', 'door panels', 'engine cover', 'engine covers', 'interior trim', 'trim panel', 'trim panels', 'bezel', 'bezels',
  'window motor', 'window motors', 'window regulator', 'window regulators',
];

/**
 * Things that are accessories only when the title says what they are for ("stand for PS5",
 * "Rahmen für LEGO") or that they replace something ("replacement battery"): alone they are too
 * often the product or part of its name ("Lion Knights Battle Pack", "Last Stand", "on frame").
 */
export const ACCESSORY_NOUNS_NEEDING_PURPOSE: readonly string[] = [
  'stand', 'stands', 'holder', 'holders', 'mount', 'mounts', 'dock', 'docks', 'docking station', 'bag', 'bags', 'sleeve', 'sleeves',
  'skin', 'skins', 'decal', 'decals', 'frame', 'frames', 'battery', 'batteries', 'keyboard', 'keyboards', 'screen', 'screens',
  'strap', 'straps', 'band', 'bands', 'headband', 'adapter', 'adapters', 'remote', 'lid', 'lids', 'cap', 'caps', 'hinge', 'hinges',
  'ständer', 'halterung', 'rahmen', 'akku', 'akkus', 'tastatur', 'armband', 'armbänder',
  'support', 'supports', 'cadre', 'batterie', 'batteries', 'clavier', 'écran', 'bracelet', 'sacoche',
  'supporto', 'cornice', 'batteria', 'tastiera', 'schermo', 'cinturino', 'borsa',
  'soporte', 'marco', 'adaptador', 'batería', 'teclado', 'pantalla', 'correa', 'bolsa', 'bolso',
];

/**
 * Materials before an accessory noun that make it the product's own body ("Apple Watch 45mm
 * Aluminum Case"): such a noun is an accessory only with its purpose ("Aluminum Case for …").
 */
export const BODY_MATERIALS: readonly string[] = ['aluminum', 'aluminium', 'stainless', 'steel', 'titanium', 'ceramic'];

/** Words saying what an accessory is for or that it replaces something. */
export const PURPOSE_WORDS: readonly string[] = [
  'for', 'fits', 'fit for', 'compatible with', 'compatible', 'replacement', 'replaces', 'spare',
  'für', 'passend für', 'kompatibel mit', 'ersatz',
  'pour', 'compatible avec', 'de rechange', 'de remplacement',
  'per', 'compatibile con', 'di ricambio',
  'para', 'compatible con', 'de repuesto', 'de recambio',
];

/** Words right before an accessory noun saying it replaces a part ("Replacement Battery"). */
export const REPLACEMENT_WORDS: readonly string[] = ['replacement', 'spare', 'ersatz'];

/** What follows "for" when the listing itself is sold for parts ("écran ne s'allume pas pour pièces"): not an accessory's purpose. */
export const PARTS_PURPOSES: readonly string[] = ['parts', 'spares', 'repair', 'repairs', 'pièces', 'ricambi', 'riparare', 'piezas', 'repuestos', 'reparar', 'bastler'];

/**
 * Words after which an accessory noun is something the listing includes or lacks, not what it
 * sells ("console with case", "laptop no charger", "includes charger"); a "+" counts too.
 */
export const INCLUSION_WORDS: readonly string[] = [
  'with', 'w', 'incl', 'includes', 'included', 'including', 'plus', 'without', 'no',
  'mit', 'inkl', 'inklusive', 'samt', 'ohne',
  'avec', 'sans', 'inclus',
  'con', 'senza', 'incluso', 'inclusa',
  'sin', 'incluye', 'incluido',
];

/** A word right before an accessory noun that makes it a complement ("minor marks to cover", "for parts"), not the thing sold. */
export const COMPLEMENT_WORDS: readonly string[] = [
  'to', 'on', 'in', 'of', 'for', 'als', 'für', 'auf', 'im', 'pour', 'dans', 'sur', 'de', 'per', 'nel', 'nella', 'su', 'di', 'para', 'en', 'del',
];

/** Packaging sold without the product: always an accessory. */
export const PACKAGING_ONLY: readonly string[] = [
  'box only', 'empty box', 'empty case', 'case only', 'no console', 'no game',
  'leerkarton', 'nur ovp', 'nur karton', 'ovp ohne inhalt', 'karton ohne inhalt', 'ohne konsole', 'originalverpackung ohne',
  'boîte vide', 'boîte seule', 'sans console',
  'scatola vuota', 'solo scatola', 'senza console',
  'caja vacía', 'caja de * vacía', 'solo caja', 'sin consola',
];

/**
 * A keyword containing one of these searches for parts or accessories themselves ("bmw e28
 * parts"): every listing is then the thing searched, not an accessory of it.
 */
export const PARTS_SEARCH_WORDS: readonly string[] = [
  'part', 'parts', 'spares', 'accessory', 'accessories', 'ersatzteil', 'ersatzteile', 'teile', 'zubehör', 'pièces', 'accessoire', 'accessoires',
  'ricambi', 'accessori', 'repuesto', 'repuestos', 'recambios', 'piezas', 'accesorios',
];

/** Filler a keyword may carry besides the vehicle it names ("2006 Volkswagen New Beetle" fits "2006 Volkswagen Beetle"). */
export const KEYWORD_FILLER_WORDS: readonly string[] = ['new', 'used', 'oem', 'genuine', 'original', 'neu', 'gebraucht', 'neuf', 'occasion', 'nuovo', 'usato', 'nuevo', 'usado'];

/** Words saying the title sells several units (a size may follow: "lot of 3", "lotto 3"). */
export const LOT_WORDS: readonly string[] = ['lot', 'lots', 'job lot', 'joblot', 'bulk', 'konvolut', 'sammelposten', 'lotto', 'lotti', 'lote', 'lotes'];

/**
 * Lot words of one language: Italian sellers sell a lot as a "stock" ("Stock 6 portafogli") or a
 * "blocco"; in English "stock" says something else ("new old stock", "stock exhaust").
 */
export const LOT_WORDS_BY_LANGUAGE: Readonly<Partial<Record<TitleLanguage, readonly string[]>>> = {
  it: ['stock', 'blocco'],
};

/** Lot words a number may follow directly: "Lot (4)", "Lot 22 PSA", "Lotto 10 carte", "Stock 6 …". */
export const LOT_WORDS_BEFORE_SIZE: readonly string[] = ['lot', 'lotto', 'lote', 'stock'];

/** "<words> N": the N is the number of units ("set of 4", "bundle of 3", "lot de 3", "set di 2"). */
export const SIZE_BEFORE_NUMBER: readonly string[] = [
  'lot of', 'lots of', 'job lot of', 'set of', 'bundle of', 'pack of',
  'lot de', 'set de', 'pack de',
  'lotto di', 'lotto da', 'set di', 'set da', 'stock di', 'blocco di',
  'lote de', 'juego de',
];

/** "N <word>": that many units ("3 Stück", "5 unidades"). */
export const UNIT_COUNT_WORDS: readonly string[] = ['stück', 'stk', 'unidades', 'uds', 'unità', 'unités'];

/**
 * "N pcs", "N pezzi": units up to `PIECES_MAX`; beyond, the number is more often the piece count
 * of one construction set ("LEGO Technic 42115 3696 pcs").
 */
export const PIECE_COUNT_WORDS: readonly string[] = ['pcs', 'pz', 'pzs', 'pezzi'];
export const PIECES_MAX = 99;

/**
 * Plural nouns of things sold by the piece: "30 Pokemon Cards", "5 figurines", "3 jeux" sell that
 * many (the number at most two words before). The singular nouns count only right after the
 * number ("196 Card Master Set", "4-Card Lot").
 */
export const COUNTED_NOUNS: readonly string[] = [
  'cards', 'holos', 'figures', 'figurines', 'minifigures', 'minifigs', 'games', 'items', 'books', 'comics', 'coins', 'stamps', 'records', 'vinyls', 'sets',
  'karten', 'figuren', 'minifiguren', 'spiele', 'artikel', 'bücher', 'münzen', 'briefmarken', 'schallplatten',
  'cartes', 'jeux', 'livres', 'bd', 'timbres', 'vinyles', 'disques',
  'carte', 'figure', 'giochi', 'libri', 'fumetti', 'monete', 'francobolli', 'vinili', 'dischi',
  'cartas', 'figuras', 'juegos', 'libros', 'cómics', 'monedas', 'sellos', 'vinilos', 'discos',
];
export const COUNTED_NOUNS_SINGULAR: readonly string[] = ['card', 'karte', 'carte', 'carta'];
/** Counts of things sold by the piece stop here; larger numbers are more often set or catalogue numbers. */
export const COUNTED_MAX = 999;

/** A count right after one of these is what the package holds ("Theme Deck 60 Cards"), not a lot. */
export const CONTAINER_WORDS: readonly string[] = ['deck', 'box', 'pack', 'tin', 'booster', 'display', 'blister', 'binder'];

/**
 * A release's formats: "6x CD" counts the discs of one release, and a media title's opening
 * number is usually part of the work's name ("28 Days Later", "88 Films").
 */
export const MEDIA_WORDS: readonly string[] = [
  'cd', 'cds', 'dvd', 'dvds', 'lp', 'lps', 'disc', 'discs', 'disque', 'disques', 'disco', 'dischi', 'discos', 'blu ray', 'blu rays', 'bluray', 'blue ray',
  'bd', 'br', 'sacd', 'vinyl', 'vinyls', 'vinyle', 'vinili', 'vinilo', 'cassette', 'cassettes', 'vhs', '4k', 'uhd',
  'film', 'films', 'movie', 'movies', 'book', 'books', 'paperback', 'hardcover',
];

/** A number before these describes one item ("6 Pins Steering Angle Sensor", "60 mm"), not a count of items. */
export const MEASURE_WORDS: readonly string[] = [
  'mm', 'cm', 'm', 'inch', 'inches', 'in', 'gb', 'tb', 'oz', 'g', 'kg', 'ml', 'l', 'v', 'w', 'hp', 'pack', 'ct', 'count', 'pk',
  'pieces', 'teile', 'pièces', 'pezzi', 'piezas', 'year', 'years', 'jahre', 'ans', 'anni', 'años',
  'pin', 'pins', 'port', 'ports', 'channel', 'channels', 'cylinder', 'cylinders', 'button', 'buttons', 'speed', 'speeds', 'way', 'ways',
  'hole', 'holes', 'slot', 'slots', 'core', 'cores', 'layer', 'layers', 'seat', 'seats', 'door', 'doors',
];

/** "2X", "3X" closing a title or before these are clothing sizes. */
export const CLOTHING_SIZE_WORDS: readonly string[] = ['l', 'xl', 'large', 'tall', 'big', 't', 'lt'];
/** The largest "NX" read as a clothing size. */
export const CLOTHING_SIZE_MAX = 6;
