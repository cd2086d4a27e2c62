/**
 * Rendered pages by URL, least recently used first out, bounded by their total size: a page of
 * 1–2 MB is rendered once and then served from memory, so the simulator costs little CPU.
 */
export class PageCache {
  private readonly pages = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const page = this.pages.get(key);
    if (page) {
      // Map keeps insertion order: moving the page to the end marks it most recently used.
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  set(key: string, page: Buffer): void {
    if (page.length > this.maxBytes) return;
    const known = this.pages.get(key);
    if (known) {
      this.pages.delete(key);
      this.bytes -= known.length;
    }
    this.pages.set(key, page);
    this.bytes += page.length;
    for (const [oldest, stored] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(oldest);
      this.bytes -= stored.length;
    }
  }
}
