import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

/**
 * The batcher alone, over a write that records its groups (the engines' writes behind it are tested in
 * orders-store.test.ts and over HTTP in test/api/orders-together.test.ts).
 */
function recordingWrite(refuse: (item: number) => boolean = () => false) {
  const groups: number[][] = [];
  let release: (() => void) | null = null;
  let holding = false;
  return {
    groups,
    /** Makes the next write wait until `letGo` is called (a write in flight). */
    hold() {
      holding = true;
    },
    letGo() {
      holding = false;
      release?.();
    },
    async write(items: number[]) {
      groups.push(items);
      if (holding) await new Promise<void>((resolve) => (release = resolve));
      if (items.some(refuse)) throw new Error(`refused ${items.filter(refuse).join(',')}`);
      return items.map((n) => n * 10);
    },
  };
}

describe('group commit', () => {
  it('writes the items of one turn together and answers each with its own outcome', async () => {
    const w = recordingWrite();
    const create = groupCommit((items: number[]) => w.write(items));
    expect(await Promise.all([1, 2, 3].map(create))).toEqual([10, 20, 30]);
    expect(w.groups).toEqual([[1, 2, 3]]);
  });

  it('keeps the items that come while a write is in flight for the next write, one write at a time', async () => {
    const w = recordingWrite();
    const create = groupCommit((items: number[]) => w.write(items));
    w.hold();
    const first = create(1);
    await new Promise((resolve) => setImmediate(resolve)); // the first write is out
    expect(w.groups).toEqual([[1]]);
    const later = [create(2), create(3)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(w.groups).toEqual([[1]]); // not written beside the one in flight
    w.letGo();
    expect(await Promise.all([first, ...later])).toEqual([10, 20, 30]);
    expect(w.groups).toEqual([[1], [2, 3]]);
  });

  it('writes a failed group again item by item, so only the item that fails alone is refused', async () => {
    const w = recordingWrite((n) => n === 2);
    const create = groupCommit((items: number[]) => w.write(items));
    const results = await Promise.allSettled([1, 2, 3].map(create));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([10, 'refused 2', 30]);
    expect(w.groups).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('writes at most maxGroup items at once', async () => {
    const w = recordingWrite();
    const create = groupCommit((items: number[]) => w.write(items), 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map(create))).toEqual([10, 20, 30, 40, 50]);
    expect(w.groups).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('goes on after a failed write: the next items get their own', async () => {
    const w = recordingWrite((n) => n === 1);
    const create = groupCommit((items: number[]) => w.write(items));
    await expect(create(1)).rejects.toThrow('refused 1');
    expect(await create(2)).toBe(20);
  });
});
