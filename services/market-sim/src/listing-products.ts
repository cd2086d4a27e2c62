import { catalogueProductOfId, listingOf, type Listing } from './listings.js';
import { productNamed } from './products.js';
import type { TitleLanguage } from './title-words.js';

/**
 * Which product each listed id is a listing of, so its item page can be rebuilt as its row was.
 *
 * An id cannot carry the product: 12 digits name no keyword, and the id's six random digits are
 * all needed to keep a long job's 20,000 listings distinct. So a search remembers the product
 * name of each id it lists (the most recent `capacity` ids, least recently used out: about 70
 * bytes each, the names shared), and an item page looks its id up. An id this simulator did not list (before any
 * search, after a restart, or long forgotten) is tried against the catalogue product its random
 * digits choose, which is how category pages list theirs; an id of a keyword's product that is not
 * remembered is "not found", as a listing the marketplace no longer has, never a made-up page.
 */
export class ListingProducts {
  private readonly names = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  /** Remembers the products of the listings a page shows. */
  remember(listings: Iterable<Listing>): void {
    for (const { itemId, product } of listings) {
      // Map keeps insertion order: setting again moves the id to the most recent end.
      this.names.delete(itemId);
      this.names.set(itemId, product.name);
    }
    for (const oldest of this.names.keys()) {
      if (this.names.size <= this.capacity) break;
      this.names.delete(oldest);
    }
  }

  /** The listing behind an id, as the search that listed it showed it (in `language`); null when unknown. */
  listingOf(itemId: string, language: TitleLanguage): Listing | null {
    const name = this.names.get(itemId);
    const remembered = name === undefined ? null : listingOf(itemId, productNamed(name), language);
    return remembered ?? listingOf(itemId, catalogueProductOfId(itemId), language);
  }
}

/** Ids remembered by default (about 14 MB): a hundred 240-row pages of a job's, and the pages of many searches besides. */
export const REMEMBERED_LISTINGS = 200_000;
