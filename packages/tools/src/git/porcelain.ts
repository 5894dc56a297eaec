// `git status --porcelain=v2 --branch -z`, parsed: the branch line and one entry per path.

interface BranchInfo {
  /** Branch name; undefined when HEAD is detached. */
  head?: string;
  /** Commit hash; undefined before the first commit. */
  oid?: string;
  upstream?: string;
  ahead?: number;
  behind?: number;
}

type Change = 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'type changed' | 'unmerged';

export interface StatusEntry {
  /** Path relative to the repository top level. */
  path: string;
  /** For renames and copies: where it came from. */
  from?: string;
  staged?: Change;
  unstaged?: Change;
  untracked?: boolean;
  /** Merge conflict; `conflict` says who changed what (both modified, deleted by them, ...). */
  conflict?: string;
}

export interface Status {
  branch: BranchInfo;
  entries: StatusEntry[];
}

const CHANGE: Record<string, Change> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type changed',
  U: 'unmerged',
};

const CONFLICT: Record<string, string> = {
  DD: 'both deleted',
  AU: 'added by us',
  UD: 'deleted by them',
  UA: 'added by them',
  DU: 'deleted by us',
  AA: 'both added',
  UU: 'both modified',
};

/** Splits off `count` space-separated fields; the rest (which may contain spaces) is the path. */
function fields(record: string, count: number): { parts: string[]; rest: string } {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const next = record.indexOf(' ', at);
    parts.push(record.slice(at, next));
    at = next + 1;
  }
  return { parts, rest: record.slice(at) };
}

export function parseStatus(out: string): Status {
  const branch: BranchInfo = {};
  const entries: StatusEntry[] = [];
  const records = out.split('\0');
  for (let i = 0; i < records.length; i++) {
    const rec = records[i];
    if (!rec) continue;
    if (rec.startsWith('# ')) {
      const [key, ...value] = rec.slice(2).split(' ');
      const v = value.join(' ');
      if (key === 'branch.oid' && v !== '(initial)') branch.oid = v;
      else if (key === 'branch.head' && v !== '(detached)') branch.head = v;
      else if (key === 'branch.upstream') branch.upstream = v;
      else if (key === 'branch.ab') {
        const m = /^\+(\d+) -(\d+)$/.exec(v);
        if (m) [branch.ahead, branch.behind] = [Number(m[1]), Number(m[2])];
      }
      continue;
    }
    const kind = rec[0];
    if (kind === '?') entries.push({ path: rec.slice(2), untracked: true });
    else if (kind === '1' || kind === '2') {
      const { parts, rest } = fields(rec, kind === '1' ? 8 : 9);
      const entry: StatusEntry = { path: rest };
      const [x, y] = parts[1];
      if (x !== '.') entry.staged = CHANGE[x] ?? 'modified';
      if (y !== '.') entry.unstaged = CHANGE[y] ?? 'modified';
      if (kind === '2') entry.from = records[++i];
      entries.push(entry);
    } else if (kind === 'u') {
      const { parts, rest } = fields(rec, 10);
      entries.push({ path: rest, conflict: CONFLICT[parts[1]] ?? 'conflict' });
    }
  }
  return { branch, entries };
}

export const STATUS_ARGS = ['status', '--porcelain=v2', '--branch', '-z'];
