-- The PostgreSQL store's migrations as released before the one list of store/shared/migrations.ts,
-- frozen: pg/migrate.test.ts builds a database with them and checks the new list opens and upgrades it.
-- Each step starts with a line '-- version N: name'.

-- version 1: calls, inbox, events, execution log, remembered approvals
CREATE TABLE tool_calls (
  seq BIGSERIAL PRIMARY KEY,
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
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  expires_at BIGINT,
  resolved_at BIGINT,
  -- The instance running the call: another instance ends it only once this one is gone.
  owner TEXT
);
CREATE INDEX tool_calls_agent ON tool_calls (agent_id, seq);
CREATE INDEX tool_calls_run ON tool_calls (run_id, seq);
CREATE INDEX tool_calls_open ON tool_calls (expires_at) WHERE status = 'pending';
-- recover() looks for calls cut off by a restart; few are ever in these states.
CREATE INDEX tool_calls_live ON tool_calls (status) WHERE status IN ('waiting', 'running', 'awaiting_approval');

CREATE TABLE inbox (
  id BIGSERIAL PRIMARY KEY,
  agent_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  run_id TEXT,
  call_id TEXT UNIQUE,
  tool TEXT,
  space_id TEXT,
  message_id BIGINT,
  payload TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  acked_at BIGINT,
  cycle_id TEXT,
  UNIQUE (agent_id, message_id)
);
CREATE INDEX inbox_agent ON inbox (agent_id, acked_at, id);
CREATE INDEX inbox_cycle ON inbox (cycle_id) WHERE cycle_id IS NOT NULL;

CREATE TABLE events (
  id BIGSERIAL PRIMARY KEY,
  ts BIGINT NOT NULL,
  type TEXT NOT NULL,
  run_id TEXT,
  agent_id TEXT,
  space_id TEXT,
  data TEXT NOT NULL
);

CREATE TABLE executions (
  id BIGSERIAL PRIMARY KEY,
  call_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  status TEXT NOT NULL,
  agent_id TEXT,
  run_id TEXT,
  timestamp TEXT NOT NULL,
  entry TEXT NOT NULL
);

CREATE TABLE remembered_approvals (
  id BIGSERIAL PRIMARY KEY,
  entry TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- version 2: spaces, members, messages, agent notes and active space, think cycles
CREATE TABLE spaces (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE space_members (
  space_id TEXT NOT NULL,
  member_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  joined_at BIGINT NOT NULL,
  PRIMARY KEY (space_id, member_id)
);
CREATE INDEX space_members_member ON space_members (member_id);

CREATE TABLE space_messages (
  id BIGSERIAL PRIMARY KEY,
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
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX space_messages_space ON space_messages (space_id, id);

CREATE TABLE agent_notes (
  agent_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  text TEXT NOT NULL,
  seq BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (agent_id, kind, id)
);

CREATE TABLE agent_state (
  agent_id TEXT PRIMARY KEY,
  active_space TEXT,
  updated_at BIGINT NOT NULL
);

CREATE TABLE cycles (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  done_at BIGINT
);

-- version 3: append_events: lock, insert and notify in one round trip
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

-- version 4: a tool asks a person: the question and its answer
ALTER TABLE tool_calls ADD COLUMN question TEXT;
ALTER TABLE tool_calls ADD COLUMN answer TEXT;
DROP INDEX tool_calls_live;
CREATE INDEX tool_calls_live ON tool_calls (status) WHERE status IN ('waiting', 'running', 'awaiting_approval', 'awaiting_input');

-- version 5: sessions belong to their agent
-- A session id belongs to the agent that first used it: another agent sending it is refused.
CREATE TABLE agent_sessions (
  session_id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- version 6: think cycles hold their messages for a lease
-- A cycle not done by then gives its messages back to the next cycle (at least once).
ALTER TABLE cycles ADD COLUMN lease_until BIGINT;
