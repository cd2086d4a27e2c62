// Types of shared/native/build.mjs (plain JavaScript so that it runs before anything is built), for the services and tests.
export declare const NATIVE_HELPER_PATH: string;
export declare function buildNative(options?: { compiler?: string; headers?: string }): { ok: boolean; missingTool?: boolean; line: string };
