import { describe, expect, it, vi } from 'vitest';
import { hashWithoutSecrets, readSessionLink, secretFromHash, sessionStorageKey } from './session-link';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    data,
  };
}

const at = (hash: string, storage = memoryStorage()) => {
  const replaceState = vi.fn();
  const found = readSessionLink({ location: { hash, pathname: '/', search: '' }, history: { replaceState, state: null }, storage });
  return { found, replaceState, storage };
};

describe('the session link printed by npm start', () => {
  it('carries the secret in #session=…', () => {
    expect(secretFromHash('#session=abc123')).toBe('abc123');
    expect(secretFromHash('#page=orders&session=x%2By')).toBe('x+y');
    expect(secretFromHash('')).toBeUndefined();
    expect(secretFromHash('#session=')).toBeUndefined();
    expect(secretFromHash('#token=api-token')).toBeUndefined();
  });

  it('leaves the rest of the fragment when the secret is wiped, and wipes an old #token= too', () => {
    expect(hashWithoutSecrets('#session=abc')).toBe('');
    expect(hashWithoutSecrets('#page=orders&session=abc&token=t')).toBe('#page=orders');
  });

  it('signs a window with no session in, and leaves the address bar without the secret', () => {
    const { found, replaceState, storage } = at('#session=secret');
    expect(found).toEqual({ kept: 'secret' });
    expect(storage.data.get(sessionStorageKey)).toBe('secret');
    expect(replaceState).toHaveBeenCalledWith(null, '', '/');
  });

  it('never replaces a kept session by itself: the other one is only offered', () => {
    const { found, storage } = at('#session=other', memoryStorage({ [sessionStorageKey]: 'mine' }));
    expect(found).toEqual({ kept: 'mine', offered: 'other' });
    expect(storage.data.get(sessionStorageKey)).toBe('mine');
  });

  it('the same link again is no offer; a reload keeps the session', () => {
    expect(at('#session=mine', memoryStorage({ [sessionStorageKey]: 'mine' })).found).toEqual({ kept: 'mine' });
    const reload = at('', memoryStorage({ [sessionStorageKey]: 'mine' }));
    expect(reload.found).toEqual({ kept: 'mine' });
    expect(reload.replaceState).not.toHaveBeenCalled();
  });

  it('an API token in a #token= link signs nobody in', () => {
    const { found, replaceState } = at('#token=api-token-of-a-client');
    expect(found).toEqual({ kept: undefined });
    expect(replaceState).toHaveBeenCalledWith(null, '', '/');
  });
});
