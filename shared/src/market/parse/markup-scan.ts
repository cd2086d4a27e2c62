/** Character tests and searches shared by the readers that scan a page's markup as text. */

/** HTML's whitespace (space, tab, line feed, form feed, carriage return). */
export function isHtmlWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/**
 * Where the end tag of a script or style sheet (`</name` in any case, then ">" or whitespace, as
 * htmlparser2 reads it) is next from `from`, or -1: looked for at each "</", a rare pair in scripts.
 */
export function rawTextEndTag(text: string, name: string, from: number): number {
  for (let candidate = text.indexOf('</', from); candidate !== -1; candidate = text.indexOf('</', candidate + 2)) {
    const after = candidate + 2 + name.length;
    const code = text.charCodeAt(after);
    if ((code === 62 || isHtmlWhitespace(code)) && text.slice(candidate + 2, after).toLowerCase() === name) return candidate;
  }
  return -1;
}
