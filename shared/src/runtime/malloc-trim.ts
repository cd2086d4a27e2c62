import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Where shared/native/build.mjs puts the helper, from this module's place in shared/dist/runtime. */
const ADDON_PATH = fileURLToPath(new URL('../../native/build/malloc-trim.node', import.meta.url));

/** glibc's `malloc_trim(0)` (true: memory was given back), or why it is not there. */
export type MallocTrim = { trim: () => boolean } | { unavailable: string };

/**
 * The native helper that gives the free pages inside glibc's heap back to the system (see
 * shared/native/malloc-trim.c). It is built where a C compiler is (npm start, npm test, the image);
 * without it the process runs as before.
 */
export function loadMallocTrim(addonPath = ADDON_PATH): MallocTrim {
  try {
    const addon = createRequire(import.meta.url)(addonPath) as { mallocTrim: () => boolean };
    return { trim: () => addon.mallocTrim() };
  } catch (error) {
    return { unavailable: `${addonPath} could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
}
