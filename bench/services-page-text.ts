import type { OneByteText } from '@comps/shared/market/parse/page-text';
import { loadNativeHelper, oneByteTextOf } from '@comps/shared/runtime/native-helper';

/**
 * How the services read a page's bytes into the text the parser scans: by the native helper (no copy)
 * where it is built, otherwise by a copy; and a line saying which, for the report.
 */
export function servicesPageText(): { oneByteText: OneByteText | undefined; line: string } {
  const native = loadNativeHelper();
  const oneByteText = oneByteTextOf(native);
  return { oneByteText, line: oneByteText ? 'pages read into text by the native helper (no copy), as the services read them' : `pages copied into text: ${'unavailable' in native ? native.unavailable : ''}` };
}
