// The agreement check of the cost benchmark: a CPU-per-call ratio means something only when every
// subject completed the same calls with the same answers and left the same rows behind.

/**
 * runs: [{ subject, tool, calls, ok, answers: Map<answer, count>, failed }], one per measured run.
 * stored: { [group]: { calls, executions, callEvents } } rows each group's store holds at the end.
 * expected: calls asked of each run. Returns the differences found, in words (empty when none).
 */
export function workDifferences(runs, stored, expected) {
  const problems = [];
  for (const r of runs) {
    if (r.ok !== expected) problems.push(`${r.subject}, ${r.tool}: ${r.ok} of ${expected} calls answered success`);
    if (r.failed)
      problems.push(
        `${r.subject}, ${r.tool}: ${r.failed} calls failed or answered otherwise${r.samples?.length ? ` (${r.samples.join('; ')})` : ''}`,
      );
  }
  // One answer per tool, the same for every subject (call ids aside).
  const byTool = new Map();
  for (const r of runs) {
    const seen = byTool.get(r.tool) ?? new Map();
    for (const a of r.answers.keys()) seen.set(a, [...(seen.get(a) ?? []), r.subject]);
    byTool.set(r.tool, seen);
  }
  for (const [tool, seen] of byTool)
    if (seen.size !== 1)
      problems.push(
        `${tool}: ${seen.size} different answers (${[...seen.values()].map((s) => [...new Set(s)].join('+')).join(' / ')})`,
      );
  const groups = Object.entries(stored);
  // agent.state events are left out: how many there are depends on how calls overlap.
  for (const key of ['calls', 'executions', 'callEvents']) {
    const values = new Set(groups.map(([, rows]) => rows[key]));
    if (values.size > 1)
      problems.push(`stored ${key} differ: ${groups.map(([g, rows]) => `${g} ${rows[key]}`).join(', ')}`);
  }
  return problems;
}

/**
 * Rows a store holds: calls, log entries, events, and of those the events every call writes
 * (its call, start and result) apart from those whose number depends on timing (agent.state).
 */
export const storedRowsQuery = (prefix = '') =>
  `SELECT (SELECT COUNT(*) FROM ${prefix}tool_calls) AS calls, (SELECT COUNT(*) FROM ${prefix}executions) AS executions, (SELECT COUNT(*) FROM ${prefix}events) AS events, (SELECT COUNT(*) FROM ${prefix}events WHERE type IN ('tool.call', 'tool.started', 'tool.result')) AS "callEvents"`;
