// sed and awk are read-only unless their script writes files or runs commands; we read the
// script to find out, and give up (not read) when it comes from a file or is computed.
import { hasFlag, parseOptions } from '../options.js';
import { execute, read, write, type Handler } from '../types.js';
import { resolved } from './files.js';
import { sedScriptFacts } from './sed-script.js';

export { sedScriptFacts } from './sed-script.js';

/** What a sed script can do beyond printing: 'write' (w, W, s///w) or 'execute' (e, s///e, not understood). */
export function sedScriptPower(script: string): 'read' | 'write' | 'execute' {
  return sedScriptFacts(script).power;
}

export const sed: Handler = (cmd, scope) => {
  const o = parseOptions(cmd.args, { shortArgs: 'efl', longArgs: ['expression', 'file', 'line-length'] });
  if (o.dynamic) return execute(cmd, 'computed arguments cannot be checked');
  const inPlace = o.short.has('i') || o.long.has('in-place');
  if (o.values.has('-f') || o.values.has('--file')) return execute(cmd, 'the sed script comes from a file');
  const scripts = [...(o.values.get('-e') ?? []), ...(o.values.get('--expression') ?? [])].map((w) => w.value);
  if (scripts.length === 0 && o.positional.length) scripts.push(o.positional[0].value);
  const sandbox = o.long.has('sandbox');
  // sed joins its -e scripts with newlines before reading them (`-e 'a\\' -e 'text'`).
  const power = sedScriptPower(scripts.join('\n'));
  if (power === 'execute' && !sandbox) return execute(cmd, 'the script runs commands');
  const files = o.values.has('-e') || o.values.has('--expression') ? o.positional : o.positional.slice(1);
  if (inPlace) return write(cmd, 'edits files in place', resolved(files, scope));
  if (power === 'write' && !sandbox) return write(cmd, 'the script writes files');
  return read(cmd);
};

/** Strips awk string and regex literals, so what is left is code. */
function awkCode(program: string): string {
  let out = '';
  let last = '';
  for (let i = 0; i < program.length; i++) {
    const c = program[i];
    if (c === '"') {
      i++;
      while (i < program.length && program[i] !== '"') {
        if (program[i] === '\\') i++;
        i++;
      }
      out += '""';
      last = '"';
      continue;
    }
    // A `/` where an operand is expected opens a regex; elsewhere it divides.
    if (c === '/' && (last === '' || /[(,~!{};&|\n=]/.test(last))) {
      i++;
      let inClass = false;
      while (i < program.length && (inClass || program[i] !== '/')) {
        if (program[i] === '\\') i++;
        else if (program[i] === '[') inClass = true;
        else if (program[i] === ']') inClass = false;
        i++;
      }
      out += '//';
      last = '/';
      continue;
    }
    if (c === '#') {
      while (i < program.length && program[i] !== '\n') i++;
      continue;
    }
    out += c;
    if (!/\s/.test(c) || c === '\n') last = c;
  }
  return out;
}

export function awkProgramPower(program: string): 'read' | 'write' | 'execute' {
  const code = awkCode(program);
  // `@f()` calls a function named in a variable (gawk), so `f = "system"` runs commands; ARGV
  // and `getline <` read files the command line does not show.
  if (/\bsystem\s*\(|@|\bARGV\b|\bARGC\b|\bgetline\b[^;{}\n]*</.test(code)) return 'execute';
  if (code.replace(/\|\|/g, '').includes('|')) return 'execute';
  if (/\bprintf?\b[^;{}\n]*>/.test(code)) return 'write';
  return 'read';
}

export const awk: Handler = (cmd) => {
  const o = parseOptions(cmd.args, {
    shortArgs: 'FvfiElW',
    longArgs: ['field-separator', 'assign', 'file', 'include', 'exec', 'load', 'source'],
  });
  if (o.values.has('-f') || o.values.has('--file') || o.values.has('-E') || o.values.has('--exec'))
    return execute(cmd, 'the awk program comes from a file');
  if (o.values.has('-i') || o.values.has('-l') || o.values.has('--include') || o.values.has('--load'))
    return execute(cmd, 'loads awk extensions');
  const programWord = o.values.get('--source')?.[0] ?? o.positional[0];
  if (!programWord) return read(cmd);
  if (!programWord.static) return execute(cmd, 'the awk program is computed');
  if (hasFlag(o, '', ['sandbox'])) return read(cmd);
  const power = awkProgramPower(programWord.value);
  if (power === 'execute') return execute(cmd, 'the program runs commands');
  if (power === 'write') return write(cmd, 'the program writes files');
  return read(cmd);
};
