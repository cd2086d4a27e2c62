// Types of shared/native/build.mjs (plain JavaScript so that it runs before anything is built), for its test.
export declare function buildNative(options?: { compiler?: string; headers?: string }): { ok: boolean; missingTool?: boolean; line: string };
