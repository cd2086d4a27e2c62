/**
 * Per-request knobs for tests, written into the search text: `sim:block` (challenge page),
 * `sim:signin` (a redirect to the sign-in page), `sim:throttle` (429), `sim:error` (500),
 * `sim:slow=MS`, `sim:empty`, `sim:total=N`, `sim:loose=N`. They are removed from the keyword the
 * page shows.
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
}

export function parseDirectives(text: string): { keyword: string; directives: Directives } {
  const directives: Directives = { block: false, signIn: false, throttle: false, error: false, slowMs: 0, empty: false, total: null, loose: null };
  const words: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
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
