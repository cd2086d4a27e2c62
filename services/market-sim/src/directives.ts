/**
 * The markups of results the marketplace serves, one of which a page can be asked for:
 *   card     the current `li.s-card` cards (the default)
 *   item     the older `li.s-item` rows
 *   su       the `su-item-card` rows in a `ul.su-grid` list, seen in July 2026
 *   tiles    cards whose classes no parser knows (`q-tile…`), in the list parsers know
 *   unknown  the same cards in a list and container parsers do not know either
 */
export const RESULT_LAYOUTS = ['card', 'item', 'su', 'tiles', 'unknown'] as const;
export type ResultLayout = (typeof RESULT_LAYOUTS)[number];

/**
 * Per-request knobs for tests, written into the search text: `sim:block` (challenge page),
 * `sim:signin` (a redirect to the sign-in page), `sim:throttle` (429), `sim:error` (500),
 * `sim:slow=MS`, `sim:empty`, `sim:total=N`, `sim:loose=N`, `sim:layout=NAME` (one of
 * `RESULT_LAYOUTS`). They are removed from the keyword the page shows; a `sim:` word that is none
 * of them (an unknown layout among them) stays a word of the keyword.
 */
export interface Directives {
  block: boolean;
  signIn: boolean;
  throttle: boolean;
  error: boolean;
  slowMs: number;
  empty: boolean;
  total: number | null;
  loose: number | null;
  layout: ResultLayout;
}

function isResultLayout(name: string): name is ResultLayout {
  return (RESULT_LAYOUTS as readonly string[]).includes(name);
}

/** The layout a `sim:layout=NAME` word asks for, or null when the word is not one. */
function layoutOf(word: string): ResultLayout | null {
  const name = /^sim:layout=([a-z]+)$/i.exec(word)?.[1]?.toLowerCase();
  return name !== undefined && isResultLayout(name) ? name : null;
}

export function parseDirectives(text: string): { keyword: string; directives: Directives } {
  const directives: Directives = { block: false, signIn: false, throttle: false, error: false, slowMs: 0, empty: false, total: null, loose: null, layout: 'card' };
  const words: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const layout = layoutOf(word);
    if (layout) {
      directives.layout = layout;
      continue;
    }
    const match = /^sim:(block|signin|throttle|error|empty|slow|total|loose)(?:=(\d{1,7}))?$/i.exec(word);
    if (!match) {
      words.push(word);
      continue;
    }
    const value = match[2] === undefined ? null : Number(match[2]);
    switch (match[1]!.toLowerCase()) {
      case 'block':
        directives.block = true;
        break;
      case 'signin':
        directives.signIn = true;
        break;
      case 'throttle':
        directives.throttle = true;
        break;
      case 'error':
        directives.error = true;
        break;
      case 'empty':
        directives.empty = true;
        break;
      case 'slow':
        directives.slowMs = Math.min(value ?? 1000, 120_000);
        break;
      case 'total':
        directives.total = value;
        break;
      case 'loose':
        directives.loose = value;
        break;
    }
  }
  return { keyword: words.join(' '), directives };
}
