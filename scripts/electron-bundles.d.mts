import type { BuildOptions } from 'esbuild';

export declare const mainBundle: BuildOptions;
export declare const preloadBundle: BuildOptions;
