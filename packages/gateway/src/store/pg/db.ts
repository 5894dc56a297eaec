// The PostgreSQL store's access to the database: a pool, transactions, and notices to the other
// instances (NOTIFY, sent with the transaction so they go out only if it commits).
import type pg from 'pg';
import { statement } from './open.js';
import type { Row } from '../shared/rows.js';
import type { StoreNotice } from '../shared/types.js';
import { isConnectionError, StoreUnavailableError } from '../shared/unavailable.js';

/** What one instance tells the others on the store's channel. */
export type Broadcast = { from: string; notices: StoreNotice[] } | { from: string; events: number };

function wrap(err: unknown): never {
  throw isConnectionError(err) ? new StoreUnavailableError(err) : err;
}

/** One client inside a transaction. */
export interface Tx {
  all(sql: string, ...args: unknown[]): Promise<Row[]>;
  get(sql: string, ...args: unknown[]): Promise<Row | undefined>;
  run(sql: string, ...args: unknown[]): Promise<number>;
  /** Sends these notices to the other instances when the transaction commits. */
  tell(notices: readonly StoreNotice[]): Promise<void>;
}

export class PgDb implements Omit<Tx, 'tell'> {
  constructor(
    readonly pool: pg.Pool,
    readonly channel: string,
    readonly instanceId: string,
  ) {}

  async all(sql: string, ...args: unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query({ ...statement(sql), values: args })).rows as Row[];
    } catch (err) {
      return wrap(err);
    }
  }

  async get(sql: string, ...args: unknown[]): Promise<Row | undefined> {
    return (await this.all(sql, ...args))[0];
  }

  async run(sql: string, ...args: unknown[]): Promise<number> {
    try {
      return (await this.pool.query({ ...statement(sql), values: args })).rowCount ?? 0;
    } catch (err) {
      return wrap(err);
    }
  }

  /** Runs `fn` in one transaction: all of it commits, or none of it. */
  async tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      return wrap(err);
    }
    let broken: unknown;
    // A connection lost between two queries of the transaction is reported by the next query;
    // unheard, the client's own error event would end the process.
    const onError = (err: Error) => (broken = err);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const out = await fn(this.txOf(client));
      await client.query('COMMIT');
      return out;
    } catch (err) {
      if (isConnectionError(err)) broken = err;
      else await client.query('ROLLBACK').catch((e: unknown) => (broken = e));
      return wrap(err);
    } finally {
      // A connection that failed is dropped, not handed to the next caller.
      client.off('error', onError);
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  /** Tells the other instances now (outside any transaction). */
  async broadcast(message: Broadcast): Promise<void> {
    await this.run('SELECT pg_notify(?, ?)', this.channel, JSON.stringify(message));
  }

  private txOf(c: pg.PoolClient): Tx {
    const all = async (sql: string, ...args: unknown[]) =>
      (await c.query({ ...statement(sql), values: args })).rows as Row[];
    return {
      all,
      get: async (sql, ...args) => (await all(sql, ...args))[0],
      run: async (sql, ...args) => (await c.query({ ...statement(sql), values: args })).rowCount ?? 0,
      tell: async (notices) => {
        // A NOTIFY payload holds under 8000 bytes: a few dozen notices each.
        for (let i = 0; i < notices.length; i += 40) {
          const message: Broadcast = { from: this.instanceId, notices: notices.slice(i, i + 40) };
          await c.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify(message)]);
        }
      },
    };
  }
}
