import { catalogTexts } from '../../../shared/messages';
import type { SectionDictionary } from '../section';

/** The core's messages by key (shared/messages/catalog.ts): field rules, refusals, connection checks. */
export const en = catalogTexts('en');

export const ru: SectionDictionary<typeof en> = catalogTexts('ru');
