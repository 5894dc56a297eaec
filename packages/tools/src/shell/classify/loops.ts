// `for f in packages/*/package.json; do jq .name "$f"; done`: while the body is walked, f holds one
// of the words of its list, known before the loop runs (literals, braces, globs expanded against
// the tree as bash would). A command that uses f is judged once per value, so a value that would be
// an option (a file named `-rf`) or a path outside is caught like a literal one. A body that may
// set f itself (`f=…`, `read f`) leaves it unknown.
import { relative } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { expandGlob } from './allow/tree.js';
import { expandBraces, hasGlob, resolveWord, type ExpansionBudget, type Known } from './words.js';

/** Values a command may be judged with, over all bound variables it names. */
const MAX_COMBINATIONS = 256;
const SETTERS = new Set(['read', 'getopts', 'mapfile', 'readarray', 'eval', 'source', '.', 'let']);

export type Bindings = Map<string, string[]>;

/** Whether the body may give the variable a value of its own. */
export function bodySets(body: Node, name: string): boolean {
  for (const n of body.descendantsOfType([
    'variable_assignment',
    'declaration_command',
    'unset_command',
    'command',
    'for_statement',
  ])) {
    if (!n) continue;
    if (n.type === 'variable_assignment' && n.childForFieldName('name')?.text === name) return true;
    if (n.type === 'declaration_command' || n.type === 'unset_command') {
      if (new RegExp(`\\b${name}\\b`).test(n.text)) return true;
    } else if (n.type === 'for_statement') {
      if (n.childForFieldName('variable')?.text === name) return true;
    } else if (n.type === 'command') {
      const cmd = n.childForFieldName('name')?.text ?? '';
      if (SETTERS.has(cmd) || (cmd === 'printf' && /(^|\s)-v\b/.test(n.text))) return true;
    }
  }
  return false;
}

/** The values of `for NAME in WORDS`, or undefined when one of them is not known before it runs. */
export function loopValues(
  node: Node,
  home: string,
  cwd: string | undefined,
  budget: ExpansionBudget,
): { name: string; values: string[] } | undefined {
  const name = node.childForFieldName('variable')?.text;
  const body = node.childForFieldName('body');
  const words = node.childrenForFieldName('value').filter((n): n is Node => !!n);
  if (!name || !body || !words.length || bodySets(body, name)) return undefined;
  const values: string[] = [];
  for (const n of words) {
    const w = resolveWord(n, home, cwd === undefined ? {} : { cwd });
    if (!w.static) return undefined;
    for (const b of expandBraces(w, budget)) {
      if (!hasGlob(b)) {
        values.push(b.value);
        continue;
      }
      if (cwd === undefined && !b.value.startsWith('/')) return undefined;
      const matches = expandGlob(b.pattern, b.value.startsWith('/') ? '/' : cwd!);
      if (!matches) return undefined;
      budget.spendWords(matches.length);
      // No match: bash keeps the word as it is.
      if (!matches.length) values.push(b.value);
      else values.push(...matches.map((m) => (b.value.startsWith('/') ? m : relative(cwd!, m))));
    }
  }
  return { name, values };
}

/** The variables bound here that a command's text names. */
function named(text: string, bindings: Bindings): string[] {
  return [...bindings.keys()].filter((v) => new RegExp(`\\$\\{?${v}(?![A-Za-z0-9_])`).test(text));
}

/**
 * Every assignment of values the command can be judged with: one per combination of the bound
 * variables it names, or one without them (they are then unknown) when there are too many.
 */
export function combinations(text: string, bindings: Bindings, cwd: string | undefined): Known[] {
  const base: Known = cwd === undefined ? {} : { cwd };
  const names = named(text, bindings);
  if (!names.length) return [base];
  let out: Map<string, string>[] = [new Map()];
  for (const v of names) {
    const values = bindings.get(v)!;
    if (out.length * values.length > MAX_COMBINATIONS) return [base];
    out = out.flatMap((m) => values.map((x) => new Map(m).set(v, x)));
  }
  return out.map((vars) => ({ ...base, vars }));
}
