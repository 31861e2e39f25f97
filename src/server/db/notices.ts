/**
 * PostgreSQL `NOTIFY`/`LISTEN`: how instances of the site tell one another of a change (the page
 * cache's purges). A notice goes through the pool; a listener needs a connection of its own, which
 * a pool cannot keep.
 */
import pg from 'pg';
import { getDb } from './client.ts';

/** Sends `payload` (at most 8000 bytes) on `channel` to every listening connection. */
export async function sendNotice(channel: string, payload: string): Promise<void> {
  await getDb().$client.query('SELECT pg_notify($1, $2)', [channel, payload]);
}

/**
 * A connection of its own listening on `channel` (a plain identifier). `onPayload` gets each
 * notice; `onDrop` is called once when the connection is lost, after which notices may have been
 * missed. Rejects, with the connection closed, when it cannot listen.
 */
export async function listenOnChannel(channel: string, onPayload: (payload: string) => void, onDrop: () => void): Promise<{ close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  let open = true;
  const dropped = () => {
    if (!open) return;
    open = false;
    client.end().catch(() => undefined);
    onDrop();
  };
  client.on('notification', (message) => {
    if (message.channel === channel && message.payload) onPayload(message.payload);
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${channel}`);
  } catch (error) {
    open = false;
    await client.end().catch(() => undefined);
    throw error;
  }
  client.on('error', dropped);
  client.on('end', dropped);
  return {
    async close() {
      open = false;
      await client.end().catch(() => undefined);
    },
  };
}
