import type { ListingNature } from './pollution.js';
import type { Product } from './products.js';
import { between, hashString, pick, randomFrom } from './random.js';
import { CARD_WORDS, TITLE_MAX_LENGTH, TITLE_SEPARATORS, TITLE_WORDS, type TitleLanguage, type TitleWords } from './title-words.js';

/**
 * Titles as sellers write them: the product's words (now and then in another order, or with a
 * model number among them), model numbers, colours, card numbers, what sellers say of the unit
 * ("Tested", "OVP", "Rare"), the condition sometimes, in the site's language; an accessory names
 * the product it is for ("Case for …", "Hülle für …"), a lot its size when it states one ("Lot of
 * 3 …", "3x …", "Konvolut …"), a broken unit often says so ("for parts or not working", "defekt").
 * Every title holds every word of the product's name. Drawn from the listing's id (given its
 * product and the site's language), so a row and its item page agree.
 */

/** How often the condition is written in the title too, per condition. */
const CONDITION_IN_TITLE: Readonly<Record<ListingNature['condition'], number>> = { new: 0.35, used: 0.15, refurbished: 0.6, forParts: 0.8 };
/** Sellers who write the whole title in capitals. */
const SHOUTED = 0.04;

/** The product as the title names it: its words, in their order mostly, now and then another order or a device's model number among them. */
function productPhrase(random: () => number, product: Product): string {
  const phrase = [...product.words];
  const roll = random();
  if (phrase.length >= 3 && roll < 0.08) phrase.push(...phrase.splice(-2, 1));
  else if (phrase.length >= 3 && roll < 0.14) phrase.push(phrase.shift()!);
  else if (phrase.length === 2 && roll < 0.05) phrase.reverse();
  else if (phrase.length >= 2 && product.family === 'device' && roll > 0.88) phrase.splice(1, 0, pick(random, product.modelCodes));
  return phrase.join(' ');
}

/** What a seller adds about the unit: model numbers and colours, a card's number and grade, a year, a few words of praise. */
function descriptors(random: () => number, product: Product, words: TitleWords): string[] {
  const added: string[] = [];
  if (product.family === 'device' && random() < 0.45) added.push(pick(random, product.modelCodes));
  if (product.family === 'collectible') {
    const card = product.name.split(' ').some((word) => CARD_WORDS.has(word));
    if (random() < 0.35) added.push(card && random() < 0.6 ? `${between(random, 1, 150)}/${between(random, 150, 300)}` : `#${between(random, 1, 300)}`);
    if (random() < 0.3) added.push(String(between(random, 1960, 2023)));
    if (card && random() < 0.15) added.push(`PSA ${between(random, 6, 10)}`);
  }
  if (product.family !== 'collectible' && random() < 0.45) added.push(pick(random, words.colours));
  const qualifiers = words.qualifiers[product.family];
  for (let count = between(random, 0, 2); count > 0; count -= 1) {
    const qualifier = pick(random, qualifiers);
    if (!added.includes(qualifier)) added.push(qualifier);
  }
  return added;
}

/** `head` and `tail` joined, the descriptors dropped from the end while the title is longer than the marketplace allows. */
function fitted(head: string, descriptorsToFit: string[], tail: string[], separator: string): string {
  const kept = [...descriptorsToFit];
  const compose = () => [[head, ...kept].join(' '), ...tail].join(separator);
  while (kept.length > 0 && compose().length > TITLE_MAX_LENGTH) kept.pop();
  return compose();
}

/** The descriptors that say nothing the condition already says ("OVP" beside "Neu OVP"). */
function besides(condition: string | null, added: string[]): string[] {
  if (!condition) return added;
  const said = new Set(condition.toLowerCase().split(/\s+/));
  return added.filter((descriptor) => !descriptor.toLowerCase().split(/\s+/).some((word) => said.has(word)));
}

function singleTitle(random: () => number, named: string, product: Product, nature: ListingNature, words: TitleWords): string {
  const drawn = descriptors(random, product, words);
  const separator = pick(random, TITLE_SEPARATORS);
  const condition = random() < CONDITION_IN_TITLE[nature.condition] ? pick(random, words.conditions[nature.condition]) : null;
  const added = besides(condition, drawn);
  // "NEW Sony …": some sellers lead with it; everything else goes last.
  if (condition && nature.condition === 'new' && random() < 0.4) return fitted(`${condition} ${named}`, added, [], separator);
  return fitted(named, added, condition ? [condition] : [], separator);
}

function lotTitle(random: () => number, named: string, product: Product, nature: ListingNature, words: TitleWords): string {
  const pattern = nature.unitsStated ? pick(random, words.sizedLots) : pick(random, words.unsizedLots);
  const head = pattern.replace('{p}', named).replace('{n}', String(nature.units));
  const drawn = descriptors(random, product, words).slice(0, 2);
  const condition = random() < CONDITION_IN_TITLE[nature.condition] ? pick(random, words.conditions[nature.condition]) : null;
  return fitted(head, besides(condition, drawn), condition ? [condition] : [], pick(random, TITLE_SEPARATORS));
}

function accessoryTitle(random: () => number, named: string, nature: ListingNature, words: TitleWords): string {
  const head = pick(random, words.accessories[nature.accessory!]).replace('{p}', named);
  const colour = random() < 0.35 ? [pick(random, words.colours)] : [];
  const condition = nature.condition === 'new' && random() < 0.2 ? [pick(random, words.conditions.new)] : [];
  return fitted(head, colour, condition, pick(random, TITLE_SEPARATORS));
}

/** The title of the listing with this id, of this product, in `language`. */
export function composeTitle(itemId: string, product: Product, nature: ListingNature, language: TitleLanguage): string {
  const random = randomFrom(hashString(`title|${itemId}`));
  const words = TITLE_WORDS[language];
  const named = productPhrase(random, product);
  const title =
    nature.kind === 'accessory'
      ? accessoryTitle(random, named, nature, words)
      : nature.kind === 'lot'
        ? lotTitle(random, named, product, nature, words)
        : singleTitle(random, named, product, nature, words);
  // Capitals that would change a word when lowered again ("ß" → "SS") would lose the product's words.
  const shouted = title.toUpperCase();
  return random() < SHOUTED && shouted.toLowerCase() === title.toLowerCase() ? shouted : title;
}
