/** The Russian half of a section must have exactly the keys of its English half. */
export type SectionDictionary<English> = { readonly [K in keyof English]: string };
