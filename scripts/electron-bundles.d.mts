import type { BuildOptions } from 'esbuild';

export declare const mainBundle: BuildOptions;
export declare const preloadBundle: BuildOptions;
/** Copies both engines' SQL migrations into `out/migrations` and `out/migrations/postgres`; answers how many of each. */
export declare function copyMigrations(root: string, out: string): { sqlite: number; postgres: number };
