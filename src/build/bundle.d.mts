/** Types of `bundle.mjs` (plain JavaScript: the launcher loads it before any TypeScript loader). */
export declare const SRC_DIR: string;
export declare const CACHE_DIR: string;
export declare function sourceFingerprint(dir?: string): string;
export declare function bundle(entry: string, name: string, cacheDir?: string): Promise<string>;
export declare function bundleToRun(entry: string, name: string, cacheDir?: string): Promise<string | null>;
