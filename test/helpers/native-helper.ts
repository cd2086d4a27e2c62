import type { Test } from 'tap';
import { loadNativeHelper, type NativeHelper } from '@comps/shared/runtime/native-helper';
import { buildNative } from '../../shared/native/build.mjs';

/**
 * The native helper, when it is loaded. npm test builds it wherever a C++ compiler and Node's headers
 * are: without them the check is skipped (the services run without it); with them a missing helper fails.
 */
export function loadedNativeHelper(t: Test): Exclude<NativeHelper, { unavailable: string }> | undefined {
  const native = loadNativeHelper();
  if (!('unavailable' in native)) return native;
  const build = buildNative();
  if (build.missingTool) t.skip(build.line, async () => undefined);
  else t.fail(`the helper should have been built and loaded: ${native.unavailable} (${build.line})`);
  return undefined;
}
