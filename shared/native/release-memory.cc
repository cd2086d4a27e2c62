/*
 * What an idle process needs to give its memory back, and Node cannot do from JavaScript:
 *
 * - mallocTrim(): glibc's malloc_trim(0), which gives back the free pages inside glibc's heap, not
 *   only those at its top. A process that read many 1-2 MB pages keeps their freed memory in glibc's
 *   heap, pinned by smaller blocks allocated after them; only malloc_trim returns it (bench:api: the
 *   api's idle collection took it from 216 MB resident to 211 without this, and from 204 MB to 137
 *   with it). Elsewhere than glibc there is nothing to trim: it returns false.
 * - lowMemoryNotification(): V8's collection for a process told it is short of memory: full
 *   collections until nothing more is freed, the young generation shrunk to its least and V8's free
 *   pages unmapped. The full collection `gc()` runs keeps the young generation at the size a load grew
 *   it to (32 MB resident, empty) unless V8 happens to judge the allocation rate low at that moment
 *   (bench:api, 12 s after the load: a V8 heap of 45 or 76 MB after `gc()`, 37 MB after this).
 *
 * Built against the running Node's headers: V8's interface is stable within one Node major version
 * only, so build.mjs names the file by that version's module ABI (`process.versions.modules`).
 */
#include <node_api.h>
#include <v8.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static napi_value mallocTrim(napi_env env, napi_callback_info) {
  bool released = false;
#ifdef __GLIBC__
  released = malloc_trim(0) == 1;
#endif
  napi_value result;
  napi_get_boolean(env, released, &result);
  return result;
}

static napi_value lowMemoryNotification(napi_env env, napi_callback_info) {
  // The isolate of the thread that calls: the helper is loaded and called on the main thread.
  v8::Isolate::GetCurrent()->LowMemoryNotification();
  napi_value result;
  napi_get_undefined(env, &result);
  return result;
}

static bool exportFunction(napi_env env, napi_value exports, const char* name, napi_callback callback) {
  napi_value function;
  return napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, nullptr, &function) == napi_ok &&
         napi_set_named_property(env, exports, name, function) == napi_ok;
}

NAPI_MODULE_INIT() {
  if (!exportFunction(env, exports, "mallocTrim", mallocTrim)) return nullptr;
  if (!exportFunction(env, exports, "lowMemoryNotification", lowMemoryNotification)) return nullptr;
  return exports;
}
