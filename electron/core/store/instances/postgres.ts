import pg from 'pg';
import { BROADCAST_LIMIT, type InstancesStore } from './instances-store';
import type { OpenedPostgres } from '../postgres';

/** The one channel every ShipDesk on the database listens on. */
export const BROADCAST_CHANNEL = 'shipdesk_events';

/**
 * PostgreSQL's: a periodic job under a session advisory lock on its name (pg_try_advisory_lock on a connection held
 * for the run, so an instance that dies lets it go with its connection); broadcasts are NOTIFY on one channel,
 * heard on a connection of their own (LISTEN holds it), not one of the pool's.
 */
export function createPostgresInstancesStore(opened: Pick<OpenedPostgres, 'pool' | 'url' | 'onClose'>): InstancesStore {
  const { pool } = opened;
  return {
    async tryRunExclusive(name, work) {
      const client = await pool.connect();
      let locked = false;
      try {
        locked = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [`shipdesk:${name}`])).rows[0].locked;
        if (!locked) return false;
        await work();
        return true;
      } finally {
        if (locked) await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`shipdesk:${name}`]).catch(() => undefined);
        client.release();
      }
    },

    async broadcast(message) {
      if (Buffer.byteLength(message) > BROADCAST_LIMIT) throw new RangeError(`A broadcast takes at most ${BROADCAST_LIMIT} bytes, not ${Buffer.byteLength(message)}`);
      await pool.query('SELECT pg_notify($1, $2)', [BROADCAST_CHANNEL, message]);
    },

    async listen(listener) {
      const client = new pg.Client({ connectionString: opened.url });
      // A connection the server dropped must not take the app down: broadcasts stop, the work goes on.
      client.on('error', () => undefined);
      client.on('notification', (n) => {
        if (n.channel === BROADCAST_CHANNEL && n.payload !== undefined) listener(n.payload);
      });
      await client.connect();
      await client.query(`LISTEN ${BROADCAST_CHANNEL}`);
      let stopped: Promise<void> | null = null;
      const stop = () => (stopped ??= client.end().catch(() => undefined));
      opened.onClose(stop);
      return stop;
    },
  };
}
