// Variables a script only ever gives integer literals (`x=2; y=3; echo $(( x ** y ))`): bash
// evaluates a name's value as arithmetic in turn, which runs code only when the value holds a
// subscript (`a[$(cmd)]`), and an integer holds none. A name qualifies in a script when every
// assignment to it anywhere in the script is `name=<integer>` (so the order of statements, loops
// and functions does not matter), nothing else in the script may set it (declare, read, unset, for,
// an element `name[i]=`, eval, source…), at least one assignment is there (a name the script never
// sets holds whatever the command inherits), and the environment the command gets holds no other
// value for it. Names without a lowercase letter are left out: bash sets those itself (`$_` is the last
// argument, BASH_REMATCH what `=~` matched, REPLY, OPTARG).
import type { Node } from 'web-tree-sitter';

const INTEGER = /^-?[0-9]{1,15}$/;
/** Commands that may set any variable. */
const SETTERS = new Set(['read', 'getopts', 'mapfile', 'readarray', 'eval', 'source', '.', 'let']);

/** Whether every way `root`'s script sets `name` gives it an integer literal; 'unset' when nothing there sets it. */
function onlyIntegers(root: Node, name: string): boolean | 'unset' {
  let assigned = false;
  const mentions = new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`);
  const kinds = ['variable_assignment', 'declaration_command', 'unset_command', 'command', 'for_statement'];
  for (const n of root.descendantsOfType(kinds)) {
    if (!n) continue;
    if (n.type === 'variable_assignment') {
      const target = n.childForFieldName('name');
      if (target?.text.replace(/\[[\s\S]*$/, '') !== name) continue;
      const value = n.childForFieldName('value');
      if (target.type !== 'variable_name' || !n.text.startsWith(`${name}=`) || !value || !INTEGER.test(value.text))
        return false;
      assigned = true;
    } else if (n.type === 'for_statement') {
      if (n.childForFieldName('variable')?.text === name) return false;
    } else if (n.type === 'command') {
      const cmd = n.childForFieldName('name')?.text ?? '';
      if (SETTERS.has(cmd) || (cmd === 'printf' && /(^|\s)-v/.test(n.text))) return false;
    } else if (mentions.test(n.text)) return false;
  }
  return assigned || 'unset';
}

/**
 * Whether `name` holds an integer (or nothing) wherever the scripts on `scripts` (the outermost
 * first, then the `bash -c` or `eval` strings being walked inside it) read it.
 */
export function integerLiteral(
  name: string,
  scripts: readonly Node[],
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (!/[a-z]/.test(name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return false;
  const inherited = env[name];
  if (inherited !== undefined && !INTEGER.test(inherited)) return false;
  // Some script must give it a value: a name none sets holds whatever the command inherits.
  const found = scripts.map((root) => onlyIntegers(root, name));
  return found.includes(true) && !found.includes(false);
}
