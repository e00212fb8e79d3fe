import { describe, expect, it, vi } from 'vitest';
import { hashWithoutToken, takeToken, tokenFromHash, tokenStorageKey } from './token';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    data,
  };
}

describe('token from the printed link', () => {
  it('is read from #token=…', () => {
    expect(tokenFromHash('#token=abc123')).toBe('abc123');
    expect(tokenFromHash('#page=orders&token=x%2By')).toBe('x+y');
  });

  it('is absent from an empty or unrelated fragment', () => {
    expect(tokenFromHash('')).toBeUndefined();
    expect(tokenFromHash('#')).toBeUndefined();
    expect(tokenFromHash('#token=')).toBeUndefined();
    expect(tokenFromHash('#other=1')).toBeUndefined();
  });

  it('leaves the rest of the fragment in place when removed', () => {
    expect(hashWithoutToken('#token=abc')).toBe('');
    expect(hashWithoutToken('#page=orders&token=abc')).toBe('#page=orders');
  });

  it('is remembered and wiped from the address bar', () => {
    const storage = memoryStorage();
    const replaceState = vi.fn();
    const token = takeToken({
      location: { hash: '#token=secret', pathname: '/', search: '' },
      history: { replaceState, state: null },
      storage,
    });
    expect(token).toBe('secret');
    expect(storage.data.get(tokenStorageKey)).toBe('secret');
    expect(replaceState).toHaveBeenCalledWith(null, '', '/');
  });

  it('comes from storage after a reload without the fragment', () => {
    const replaceState = vi.fn();
    const token = takeToken({
      location: { hash: '', pathname: '/', search: '' },
      history: { replaceState, state: null },
      storage: memoryStorage({ [tokenStorageKey]: 'kept' }),
    });
    expect(token).toBe('kept');
    expect(replaceState).not.toHaveBeenCalled();
  });

  it('is missing when there is neither a link nor a saved token', () => {
    expect(takeToken({ location: { hash: '', pathname: '/', search: '' }, history: { replaceState: vi.fn(), state: null }, storage: memoryStorage() })).toBeUndefined();
  });

  it('prefers a new link over an old saved token', () => {
    const storage = memoryStorage({ [tokenStorageKey]: 'old' });
    takeToken({ location: { hash: '#token=new', pathname: '/', search: '' }, history: { replaceState: vi.fn(), state: null }, storage });
    expect(storage.data.get(tokenStorageKey)).toBe('new');
  });
});
