// Types of scripts/bootstrap.mjs (plain JavaScript so that it runs before node_modules exists), for its tests.
export declare function dependenciesNeedInstall(root?: string): boolean;
export declare function caddyProblem(env?: Record<string, string | undefined>): string | undefined;
