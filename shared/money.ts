/** Rubles (at most two decimals) to integer kopecks, without binary-float drift. */
export const toKopecks = (rubles: number): number => Math.round(rubles * 100);

/** Integer kopecks back to rubles for the wire. */
export const toRubles = (kopecks: number): number => kopecks / 100;
