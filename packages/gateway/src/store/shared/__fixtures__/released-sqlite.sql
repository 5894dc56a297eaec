-- The SQLite store's migrations as released before the one list of store/shared/migrations.ts,
-- frozen: sqlite/migrate.test.ts builds a database with them and checks the new list opens and upgrades it.
-- Each step starts with a line '-- version N: name'.

-- version 1: calls, inbox, events, execution log, remembered approvals
CREATE TABLE tool_calls (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
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
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER,
  resolved_at INTEGER
);
CREATE INDEX tool_calls_agent ON tool_calls (agent_id, seq);
CREATE INDEX tool_calls_run ON tool_calls (run_id, seq);
-- Only open calls are indexed: a call that just runs and ends never touches this index.
CREATE INDEX tool_calls_open ON tool_calls (expires_at) WHERE status = 'pending';

CREATE TABLE inbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agent_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  call_id TEXT NOT NULL UNIQUE,
  tool TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  acked_at INTEGER
);
CREATE INDEX inbox_agent ON inbox (agent_id, acked_at, id);

CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ts INTEGER NOT NULL,
  type TEXT NOT NULL,
  run_id TEXT,
  agent_id TEXT,
  data TEXT NOT NULL
);
-- No secondary indexes: replay reads forward from Last-Event-ID along the primary key,
-- which is short for a reconnecting client, and every index would tax each event written.

CREATE TABLE executions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entry TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- version 2: spaces, members, messages, agent notes and active space; inbox messages and think cycles
CREATE TABLE spaces (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE space_members (
  space_id TEXT NOT NULL,
  member_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (space_id, member_id)
);
CREATE INDEX space_members_member ON space_members (member_id);

CREATE TABLE space_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX space_messages_space ON space_messages (space_id, id);

CREATE TABLE agent_notes (
  agent_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  text TEXT NOT NULL,
  seq INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (agent_id, kind, id)
);

CREATE TABLE agent_state (
  agent_id TEXT PRIMARY KEY,
  active_space TEXT,
  updated_at INTEGER NOT NULL
);

CREATE TABLE cycles (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  done_at INTEGER
);

-- The inbox also holds space messages now: call columns become optional.
CREATE TABLE inbox_v2 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agent_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  run_id TEXT,
  call_id TEXT UNIQUE,
  tool TEXT,
  space_id TEXT,
  message_id INTEGER,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  acked_at INTEGER,
  cycle_id TEXT,
  UNIQUE (agent_id, message_id)
);
INSERT INTO inbox_v2 (id, agent_id, kind, run_id, call_id, tool, payload, created_at, acked_at)
  SELECT id, agent_id, 'tool_result', run_id, call_id, tool, payload, created_at, acked_at FROM inbox;
DROP TABLE inbox;
ALTER TABLE inbox_v2 RENAME TO inbox;
CREATE INDEX inbox_agent ON inbox (agent_id, acked_at, id);
CREATE INDEX inbox_cycle ON inbox (cycle_id) WHERE cycle_id IS NOT NULL;

ALTER TABLE events ADD COLUMN space_id TEXT;

-- version 3: a tool asks a person: the question and its answer
ALTER TABLE tool_calls ADD COLUMN question TEXT;
ALTER TABLE tool_calls ADD COLUMN answer TEXT;

-- version 4: sessions belong to their agent
-- A session id belongs to the agent that first used it: another agent sending it is refused.
CREATE TABLE agent_sessions (
  session_id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- version 5: think cycles hold their messages for a lease
-- A cycle not done by then gives its messages back to the next cycle (at least once).
ALTER TABLE cycles ADD COLUMN lease_until INTEGER;
