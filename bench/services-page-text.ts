import { loadNativeHelper, pageReadingOf, type PageReading } from '@comps/shared/runtime/native-helper';

/**
 * How the api reads a page's bytes into the text the parser scans: by the native helper (no copy, or
 * joined for its parse thread into memory kept for pages) where it is built, otherwise by a copy; and
 * a line saying which, for the report.
 */
export function servicesPageText(): { pageReading: PageReading | undefined; line: string } {
  const native = loadNativeHelper();
  const pageReading = pageReadingOf(native, { joinForThreads: true });
  return { pageReading, line: pageReading ? "pages read into text by the native helper (one part without a copy, chunks joined into kept memory), as the api reads them" : `pages copied into text: ${'unavailable' in native ? native.unavailable : ''}` };
}
