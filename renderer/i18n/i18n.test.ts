import { describe, expect, it } from 'vitest';
import { en } from './en';
import { ru } from './ru';
import { createTranslate, detectLanguage, interpolate, translateDynamic } from './translate';
import type { Dictionary } from './types';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('dictionaries', () => {
  it('Russian has exactly the English keys', () => {
    expect(Object.keys(ru).sort()).toEqual(Object.keys(en).sort());
  });

  it('a dictionary missing a key does not compile', () => {
    // @ts-expect-error every key of the English dictionary is required
    const incomplete: Dictionary = { 'app.name': 'ShipDesk' };
    expect(incomplete).toBeDefined();
  });

  it('no key is defined by two sections (a later one would silently win)', async () => {
    const sections = import.meta.glob<{ en: Record<string, string> }>('./sections/*.ts', { eager: true });
    const seen = new Map<string, string>();
    for (const [file, section] of Object.entries(sections))
      for (const key of Object.keys(section.en)) {
        expect(seen.get(key), `${key} in ${file}`).toBeUndefined();
        seen.set(key, file);
      }
    expect(seen.size).toBe(Object.keys(en).length);
  });

  it('no message is empty', () => {
    for (const [key, text] of [...Object.entries(en), ...Object.entries(ru)]) expect(text.trim(), key).not.toBe('');
  });

  it('each Russian message takes the same parameters as the English one', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) expect(placeholders(ru[key]), key).toEqual(placeholders(en[key]));
  });
});

describe('t()', () => {
  it('fills parameters in the chosen language', () => {
    expect(createTranslate('en')('form.created', { number: 'A-17' })).toBe('Order A-17 created');
    expect(createTranslate('ru')('form.created', { number: 'A-17' })).toBe('Заказ A-17 создан');
  });

  it('leaves an unknown placeholder visible instead of dropping it', () => {
    expect(interpolate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });

  it('translates keys built at run time, and says when there is no such key', () => {
    const t = createTranslate('ru');
    expect(translateDynamic(t, 'error.040081')).toBe('Заказ уже отменён');
    expect(translateDynamic(t, 'error.999999')).toBeUndefined();
  });
});

describe('language at start', () => {
  it('is Russian on a Russian system', () => {
    expect(detectLanguage(null, 'ru-RU')).toBe('ru');
    expect(detectLanguage(null, 'ru')).toBe('ru');
  });

  it('is English on any other system', () => {
    expect(detectLanguage(null, 'en-US')).toBe('en');
    expect(detectLanguage(null, 'uk-UA')).toBe('en');
    expect(detectLanguage(null, undefined)).toBe('en');
  });

  it('follows the saved choice over the system', () => {
    expect(detectLanguage('en', 'ru-RU')).toBe('en');
    expect(detectLanguage('ru', 'en-US')).toBe('ru');
    expect(detectLanguage('de', 'ru-RU')).toBe('ru');
  });
});
