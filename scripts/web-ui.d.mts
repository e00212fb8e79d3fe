/** Whether dist/ holds the web UI of the current sources (renderer/, shared/, vite.config.ts, index.html). */
export declare function webUiIsCurrent(): boolean;
/** The folder `vite build` writes the web UI to (dist/). */
export declare const webUiDir: string;
export declare function ensureWebUi(prefix?: string): Promise<void>;
export declare function localBin(pkg: string): string;
export declare function runStep(label: string, file: string, stepArgs: string[], prefix?: string): Promise<void>;
