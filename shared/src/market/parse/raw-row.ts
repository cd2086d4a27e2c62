/** One result row as the page shows it, before any interpretation; both layouts produce this. */
export interface RawRow {
  /** The listing id the row carries (`data-listingid`), or null. */
  listingId: string | null;
  href: string | null;
  title: string;
  imageUrl: string | null;
  caption: string | null;
  subtitles: string[];
  /** The price spans of the price row, in order (a range has three: low, "to", high). */
  priceParts: Array<{ text: string; classes: string }>;
  /** Every other attribute row's text, in order. */
  rows: string[];
  /** The seller's name, and the "99.8% positive (1.1K)" text beside it. */
  sellerName: string | null;
  sellerFeedback: string | null;
}
