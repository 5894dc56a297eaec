// The versioned schema of both stores, written once (see dialect.ts for the placeholders). Append new
// steps; never edit a released one: a database records the versions it has run and runs only newer
// ones. The schema each version makes is fingerprinted in __fixtures__/released-schema.json (a new
// step's fingerprint is the one the migrate tests print). Times are epoch milliseconds; JSON is kept as
// text, so both stores share their row mapping.
import { migrationsOf, type MigrationSource } from './dialect.js';

export { StoreVersionError } from './dialect.js';

// The inbox as it is since spaces: calls and space messages (PostgreSQL started with it).
const INBOX = `(
        id {id},
        agent_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        run_id TEXT,
        call_id TEXT UNIQUE,
        tool TEXT,
        space_id TEXT,
        message_id {int},
        payload TEXT NOT NULL,
        created_at {ts} NOT NULL,
        acked_at {ts},
        cycle_id TEXT,
        UNIQUE (agent_id, message_id)
      )`;
const INBOX_INDEXES = `
      CREATE INDEX inbox_agent ON inbox (agent_id, acked_at, id);
      CREATE INDEX inbox_cycle ON inbox (cycle_id) WHERE cycle_id IS NOT NULL;`;

export const MIGRATION_SOURCES: readonly MigrationSource[] = [
  {
    version: { sqlite: 1, pg: 1 },
    name: 'calls, inbox, events, execution log, remembered approvals',
    sql: `
      CREATE TABLE tool_calls (
        seq {id},
        call_id TEXT NOT NULL UNIQUE,
        run_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        input TEXT NOT NULL,
        status TEXT NOT NULL,
        visible INTEGER NOT NULL DEFAULT 0,
        approval TEXT,
        decision TEXT,
        submitted TEXT,
        result TEXT,
        created_at {ts} NOT NULL,
        updated_at {ts} NOT NULL,
        expires_at {ts},
        resolved_at {ts}{pg:,
        -- The instance running the call: another instance ends it only once this one is gone.
        owner TEXT}
      );
      CREATE INDEX tool_calls_agent ON tool_calls (agent_id, seq);
      CREATE INDEX tool_calls_run ON tool_calls (run_id, seq);
      -- Only open calls are indexed: a call that just runs and ends never touches this index.
      CREATE INDEX tool_calls_open ON tool_calls (expires_at) WHERE status = 'pending';
      {pg:-- recover() looks for calls cut off by a restart; few are ever in these states.
      CREATE INDEX tool_calls_live ON tool_calls (status) WHERE status IN ('waiting', 'running', 'awaiting_approval');}

      {sqlite:CREATE TABLE inbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        agent_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        call_id TEXT NOT NULL UNIQUE,
        tool TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        acked_at INTEGER
      );
      CREATE INDEX inbox_agent ON inbox (agent_id, acked_at, id);}
      {pg:CREATE TABLE inbox ${INBOX};${INBOX_INDEXES}}

      CREATE TABLE events (
        id {id},
        ts {ts} NOT NULL,
        type TEXT NOT NULL,
        run_id TEXT,
        agent_id TEXT,{pg:
        space_id TEXT,}
        data TEXT NOT NULL
      );
      -- No secondary indexes: replay reads forward from Last-Event-ID along the primary key,
      -- which is short for a reconnecting client, and every index would tax each event written.

      CREATE TABLE executions (
        id {id},
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        status TEXT NOT NULL,
        agent_id TEXT,
        run_id TEXT,
        timestamp TEXT NOT NULL,
        entry TEXT NOT NULL
      );
      -- Read newest first along the primary key; no index to pay for on every call.

      CREATE TABLE remembered_approvals (
        id {id},
        entry TEXT NOT NULL,
        created_at {ts} NOT NULL
      );
    `,
  },
  {
    version: { sqlite: 2, pg: 2 },
    name: 'spaces, members, messages, agent notes and active space; inbox messages and think cycles',
    sql: `
      CREATE TABLE spaces (
        seq {id},
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        created_at {ts} NOT NULL
      );

      CREATE TABLE space_members (
        space_id TEXT NOT NULL,
        member_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        joined_at {ts} NOT NULL,
        PRIMARY KEY (space_id, member_id)
      );
      CREATE INDEX space_members_member ON space_members (member_id);

      CREATE TABLE space_messages (
        id {id},
        space_id TEXT NOT NULL,
        sender_id TEXT NOT NULL,
        sender_kind TEXT NOT NULL,
        kind TEXT NOT NULL,
        text TEXT,
        call_id TEXT UNIQUE,
        run_id TEXT,
        tool TEXT,
        input TEXT,
        outcome TEXT,
        status TEXT NOT NULL,
        created_at {ts} NOT NULL,
        updated_at {ts} NOT NULL
      );
      CREATE INDEX space_messages_space ON space_messages (space_id, id);

      CREATE TABLE agent_notes (
        agent_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        text TEXT NOT NULL,
        seq {int} NOT NULL,
        updated_at {ts} NOT NULL,
        PRIMARY KEY (agent_id, kind, id)
      );

      CREATE TABLE agent_state (
        agent_id TEXT PRIMARY KEY,
        active_space TEXT,
        updated_at {ts} NOT NULL
      );

      CREATE TABLE cycles (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        created_at {ts} NOT NULL,
        done_at {ts}
      );
      {sqlite:
      -- The inbox also holds space messages now: call columns become optional.
      CREATE TABLE inbox_v2 ${INBOX};
      INSERT INTO inbox_v2 (id, agent_id, kind, run_id, call_id, tool, payload, created_at, acked_at)
        SELECT id, agent_id, 'tool_result', run_id, call_id, tool, payload, created_at, acked_at FROM inbox;
      DROP TABLE inbox;
      ALTER TABLE inbox_v2 RENAME TO inbox;${INBOX_INDEXES}

      ALTER TABLE events ADD COLUMN space_id TEXT;}
    `,
  },
  {
    version: { pg: 3 },
    name: 'append_events: lock, insert and notify in one round trip',
    sql: `
      -- Events are appended under a transaction lock so ids become visible in the order they were
      -- given out; one call of this function is one statement, so the lock is held only for it.
      CREATE FUNCTION append_events(p_ts BIGINT[], p_type TEXT[], p_run TEXT[], p_agent TEXT[], p_space TEXT[], p_data TEXT[], p_channel TEXT, p_from TEXT)
      RETURNS SETOF BIGINT LANGUAGE plpgsql AS $$
      DECLARE ids BIGINT[];
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext(p_channel || ':events'));
        WITH ins AS (
          INSERT INTO events (ts, type, run_id, agent_id, space_id, data) SELECT * FROM unnest(p_ts, p_type, p_run, p_agent, p_space, p_data) RETURNING id
        ) SELECT array_agg(id ORDER BY id) INTO ids FROM ins;
        PERFORM pg_notify(p_channel, json_build_object('from', p_from, 'events', ids[array_upper(ids, 1)])::text);
        RETURN QUERY SELECT unnest(ids);
      END $$;
    `,
  },
  {
    version: { sqlite: 3, pg: 4 },
    name: 'a tool asks a person: the question and its answer',
    sql: `
      ALTER TABLE tool_calls ADD COLUMN question TEXT;
      ALTER TABLE tool_calls ADD COLUMN answer TEXT;{pg:
      DROP INDEX tool_calls_live;
      CREATE INDEX tool_calls_live ON tool_calls (status) WHERE status IN ('waiting', 'running', 'awaiting_approval', 'awaiting_input');}
    `,
  },
  {
    version: { sqlite: 4, pg: 5 },
    name: 'sessions belong to their agent',
    sql: `
      -- A session id belongs to the agent that first used it: another agent sending it is refused.
      CREATE TABLE agent_sessions (
        session_id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        created_at {ts} NOT NULL
      );
    `,
  },
  {
    version: { sqlite: 5, pg: 6 },
    name: 'think cycles hold their messages for a lease',
    sql: `
      -- A cycle not done by then gives its messages back to the next cycle (at least once).
      ALTER TABLE cycles ADD COLUMN lease_until {ts};
    `,
  },
];

export const SQLITE_MIGRATIONS = migrationsOf(MIGRATION_SOURCES, 'sqlite');
export const PG_MIGRATIONS = migrationsOf(MIGRATION_SOURCES, 'pg');
export const SQLITE_LATEST_VERSION = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1].version;
export const PG_LATEST_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;
