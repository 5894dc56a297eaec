// The instance's own connection to the database: it LISTENs on the store's channel for what the
// other instances say, holds the lock that tells them this instance is alive, and reconnects with
// backoff when the connection is lost. While it is down the store reports itself unhealthy.
import pg from 'pg';
import type { Broadcast } from './db.js';

export interface ListenerHooks {
  /** A message from another instance. */
  message(b: Broadcast): void;
  /** The connection was lost: whoever waits looks at the store now, and fails there rather than hang. */
  lost(): void;
  /** Connected again after a loss: anything said meanwhile was missed, so look again. */
  reconnected(): void;
}

/** classid of the advisory locks that mark live instances (objid: hashtext of the instance key). */
export const INSTANCE_LOCK_CLASS = 1969;

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;

export class PgListener {
  private client: pg.Client | undefined;
  private closed = false;
  private attempt = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Why the connection is down, while it is. */
  lastError: string | undefined = 'not connected yet';

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly channel: string,
    /** This instance's key in the live-instance locks. */
    private readonly instanceKey: string,
    private readonly hooks: ListenerHooks,
  ) {}

  get connected(): boolean {
    return this.lastError === undefined;
  }

  /** Connects the first time; throws when the database cannot be reached. */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    client.on('notification', (n) => {
      if (n.channel !== this.channel || !n.payload) return;
      try {
        this.hooks.message(JSON.parse(n.payload) as Broadcast);
      } catch {
        // Not ours, or from a newer toolbelt: nothing to wake.
      }
    });
    try {
      await client.connect();
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [INSTANCE_LOCK_CLASS, this.instanceKey]);
      await client.query(`LISTEN "${this.channel}"`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) return void (await client.end().catch(() => {}));
    this.client = client;
    const wasDown = this.attempt > 0;
    this.attempt = 0;
    this.lastError = undefined;
    if (wasDown) this.hooks.reconnected();
  }

  private lost(client: pg.Client, err: Error): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.lastError = err.message;
    client.removeAllListeners('end');
    client.end().catch(() => {});
    this.retry();
    this.hooks.lost();
  }

  private retry(): void {
    if (this.closed || this.timer) return;
    const delay = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** this.attempt++) * (0.5 + Math.random() / 2);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.connect().catch((err: Error) => {
        this.lastError = err.message;
        this.retry();
      });
    }, delay);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const c = this.client;
    this.client = undefined;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
    }
  }
}
