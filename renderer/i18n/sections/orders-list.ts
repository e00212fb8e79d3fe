import type { SectionDictionary } from '../section';

export const en = {} as const;

export const ru: SectionDictionary<typeof en> = {};
