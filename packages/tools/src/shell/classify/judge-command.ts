// One simple command with a known name: a read only when the allow-list understands every word;
// otherwise the command's handler says how much worse (write, destructive, blocked), and a "read"
// from it is not enough: it asks.
import { canonical } from './allow/getopt.js';
import { judge, readFindings, readSpecFor } from './allow/index.js';
import { handlerFor } from './commands/index.js';
import { describe, type Finding, type Scope, type SimpleCommand } from './types.js';

export function judgeCommand(cmd: SimpleCommand, scope: Scope): Finding[] {
  const spec = readSpecFor(cmd.name);
  const verdict = spec ? judge(cmd, spec, scope) : undefined;
  if (verdict?.ok) return readFindings(cmd, verdict);
  const why = verdict ? verdict.why : undefined;
  const handler = handlerFor(cmd.name);
  // Handlers match options by their full names: spell abbreviations out first. An option the
  // table does not know may do anything, so the handler's "write" does not stand either.
  const args = spec?.options ? canonical(cmd.args, spec.options) : cmd.args;
  const own = handler
    ? handler(args ? { ...cmd, args } : cmd, scope)
    : [{ effect: 'execute' as const, detail: describe(cmd, why) }];
  return own.map((f) => {
    if (f.effect === 'read')
      return {
        ...f,
        effect: 'execute' as const,
        detail: describe(cmd, why ?? 'not a command we know to be read-only'),
      };
    if (f.effect === 'write' && !args) return { ...f, effect: 'execute' as const, detail: describe(cmd, why) };
    return f;
  });
}
