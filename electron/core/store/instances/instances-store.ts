/**
 * What the ShipDesk instances sharing one database do together: a periodic job run by one of them at a time, and
 * short messages from one to the others (an order changed there: windows here read it again). On SQLite one app
 * owns the file, so the work just runs and nobody else hears.
 */
export interface InstancesStore {
  /**
   * Runs `work` unless another instance on the database is running the work of this name right now (then resolves
   * false at once, without waiting). The claim ends with the work, or with the instance if it dies.
   */
  tryRunExclusive(name: string, work: () => Promise<void>): Promise<boolean>;
  /** Sends a short text (at most BROADCAST_LIMIT bytes) to every instance listening on the database, this one included. */
  broadcast(message: string): Promise<void>;
  /** Starts hearing the broadcasts; resolves with the way to stop. */
  listen(listener: (message: string) => void): Promise<() => Promise<void>>;
}

/** What one broadcast may carry (PostgreSQL's NOTIFY takes under 8,000 bytes). */
export const BROADCAST_LIMIT = 7_900;
