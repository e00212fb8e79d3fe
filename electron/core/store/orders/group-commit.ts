/**
 * Group commit: single writes that arrive while a write is in flight wait and go together in the next one, so many
 * callers at once (32 connections creating orders, a shop's script) pay one transaction — one COMMIT, one WAL flush,
 * one round trip set on PostgreSQL — per group instead of one each. Each caller is still answered on its own,
 * with its own item's outcome. Nothing is shared but the write: when a group's write throws (one item the engine
 * refuses fails the whole statement, and the write is atomic, so nothing of the group stays), every item of the
 * group is written again on its own, and only the ones that fail alone are refused.
 *
 * One write is in flight at a time; the first item of an idle batcher waits for the end of the current turn of the
 * event loop, so the callers of the same turn share its write.
 */
export function groupCommit<Item, Outcome>(write: (items: Item[]) => Promise<Outcome[]>, maxGroup = 200): (item: Item) => Promise<Outcome> {
  interface Waiting {
    item: Item;
    resolve(outcome: Outcome): void;
    reject(error: unknown): void;
  }
  let waiting: Waiting[] = [];
  let busy = false;

  async function settle(group: Waiting[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await write(group.map((w) => w.item));
    } catch (error) {
      if (group.length === 1) group[0].reject(error);
      else for (const one of group) await settle([one]);
      return;
    }
    group.forEach((w, i) => w.resolve(outcomes[i]));
  }

  async function drain() {
    while (waiting.length) {
      const group = waiting.slice(0, maxGroup);
      waiting = waiting.slice(group.length);
      await settle(group);
    }
    busy = false;
  }

  return (item) =>
    new Promise<Outcome>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (busy) return;
      busy = true;
      setImmediate(() => void drain());
    });
}
