// Shell syntax that evaluates words: parameter expansions with subscripts or indirection,
// arithmetic, `[[ ]]` comparisons, declarations and here-documents. Each is harmless only in
// its plain forms; these functions say why a form is not plain, or return undefined.
import type { Node } from 'web-tree-sitter';
import { NAME } from './allow/builtins.js';
import { plainArithmetic } from './allow/builtins.js';
import { assignProblem } from './allow/variables.js';

// `$x`, `${x}`, `${#x}`, `${a[@]}`, `${a[2]}`, `${x:-word}`, `${x#pat}`, `${x/a/b}`, `${x^^}`.
// Not: `${!x}` (indirection), `${x@P}` (prompt expansion runs substitutions), `${x:1:2}` and
// `${a[i]}` (arithmetic on names), `${x:=v}` (assigns).
const PLAIN_EXPANSION =
  /^\$\{#?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[@*]\]|\[[0-9]+\])?(?:(?::?[-+?]|#{1,2}|%{1,2}|\/{1,2}|\^{1,2}|,{1,2})[\s\S]*)?\}$/;

export function expansionProblem(node: Node): string | undefined {
  const text = node.text;
  if (!text.startsWith('${')) return undefined;
  return PLAIN_EXPANSION.test(text) ? undefined : `${short(text)} is evaluated (indirection, arithmetic or assignment)`;
}

/** Whether a name's value is known to be an integer wherever the node is evaluated (a `for` variable over integers). */
export type IntegerName = (name: string) => boolean;
const noIntegers: IntegerName = () => false;

export function arithmeticProblem(node: Node, integer: IntegerName = noIntegers): string | undefined {
  const inner = node.text.replace(/^\$?\(\(|\)\)$|^\$\[|\]$/g, '');
  return plainArithmetic(inner) || overIntegers(inner, integer)
    ? undefined
    : `${short(node.text)} is arithmetic on names, which evaluates their values`;
}

/**
 * `$((i+1))`, `$(( $i * 2 ))` where every name holds an integer: bash evaluates a name's value as
 * arithmetic in turn, which runs code only when the value holds a subscript (`a[$(cmd)]`); an
 * integer holds none. No subscripts, substitutions or assignments (`=`, `+=`, `++`) in the expression.
 */
function overIntegers(expr: string, integer: IntegerName): boolean {
  const bare = expr.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, '$1$2');
  if (/[`\\$[\]#]|\+\+|--|<<=|>>=|(^|[^=!<>])=(?!=)/.test(bare)) return false;
  const names = bare.match(/[A-Za-z_][A-Za-z0-9_]*/g);
  return !!names && names.every(integer);
}

const ARITH_OPS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const INTEGER = /^[-+]?\d+$/;

/** `[[ ]]`: comparisons with -eq and friends evaluate both sides; -v evaluates a subscript. */
export function testProblem(node: Node): string | undefined {
  for (const expr of node.descendantsOfType(['binary_expression', 'unary_expression'])) {
    if (!expr) continue;
    const op = expr.childForFieldName('operator')?.text ?? expr.children.find((c) => c?.type === 'test_operator')?.text;
    if (expr.type === 'binary_expression' && op && ARITH_OPS.has(op)) {
      for (const side of [expr.childForFieldName('left'), expr.childForFieldName('right')]) {
        if (side && !INTEGER.test(side.text))
          return `[[ ${short(expr.text)} ]] evaluates ${short(side.text)} as arithmetic`;
      }
    }
    if (expr.type === 'unary_expression' && op === '-v') {
      const operand = expr.children.find((c) => c && c.type !== 'test_operator');
      if (operand && !NAME.test(operand.text)) return `[[ -v ${short(operand.text)} ]] evaluates a subscript`;
    }
  }
  return undefined;
}

/** An unquoted here-document expands `$(...)` (walked as commands) and backquotes (not parsed). */
export function heredocProblem(node: Node): string | undefined {
  const start = node.children.find((c) => c?.type === 'heredoc_start')?.text ?? '';
  if (/['"\\]/.test(start)) return undefined;
  const body = node.children.find((c) => c?.type === 'heredoc_body')?.text ?? '';
  return body.includes('`') ? 'an unquoted here-document runs the commands in its backquotes' : undefined;
}

/** The name being assigned, when it is plain; a subscript (`a[$(cmd)]=1`) is evaluated. */
export function assignedName(node: Node): { name: string } | { why: string } {
  const nameNode = node.childForFieldName('name');
  const name = nameNode?.text ?? '';
  if (!nameNode || nameNode.type !== 'variable_name' || !NAME.test(name))
    return { why: `${short(name)}= assigns through a subscript, which is evaluated` };
  const value = node.childForFieldName('value');
  // `a=([i]=1)`: keys of an indexed array are arithmetic.
  if (value?.type === 'array' && /\[(?![0-9]+\]=)[^\]]*\]=/.test(value.text))
    return { why: `${short(node.text)} has computed array keys` };
  return { name };
}

export interface Declaration {
  exported: boolean;
  prints: boolean;
  why?: string;
  names: string[];
}

/** declare/typeset/local/export/readonly: which names it sets or exports, and risky flags. */
export function declaration(node: Node): Declaration {
  const keyword = node.child(0)?.text ?? '';
  const out: Declaration = { exported: keyword === 'export', prints: false, names: [] };
  let args = 0;
  for (const child of node.children.slice(1)) {
    if (!child) continue;
    if (child.type === 'variable_assignment') {
      args++;
      const n = assignedName(child);
      if ('why' in n) return { ...out, why: n.why };
      out.names.push(n.name);
      continue;
    }
    const text = child.text;
    if (/^[-+][A-Za-z]+$/.test(text)) {
      if (/[ni]/.test(text))
        return { ...out, why: `${keyword} ${text} makes later assignments evaluate (nameref or integer)` };
      if (text.startsWith('-') && text.includes('x')) out.exported = true;
      if (text.includes('p')) out.prints = true;
      continue;
    }
    args++;
    if ((child.type !== 'word' && child.type !== 'variable_name') || !NAME.test(text))
      return { ...out, why: `${short(text)} is not a plain variable name` };
    out.names.push(text);
  }
  if (args === 0) out.prints = true;
  return out;
}

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > 60 ? `${one.slice(0, 59)}…` : one;
}

/** export/declare/local/unset/[[ ]]: why the statement is more than a read, or undefined. */
export function statementProblem(node: Node, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (node.type === 'test_command') return testProblem(node);
  if (node.type === 'unset_command') {
    const bad = node.children
      .slice(1)
      .find((c) => c && !/^-[fvn]$/.test(c.text) && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.text));
    return bad ? `unset ${bad.text}: a subscript there is evaluated` : undefined;
  }
  const d = declaration(node);
  if (d.why) return d.why;
  if (d.prints && !d.names.length) return 'it prints every variable';
  for (const name of d.names) {
    const why = assignProblem(name, d.exported, env);
    if (why) return why;
  }
  return undefined;
}

/** Why a node that evaluates words is more than plain: expansions, arithmetic, `for (( ))`, here-documents. */
export function evaluationProblem(node: Node, integer: IntegerName = noIntegers): string | undefined {
  switch (node.type) {
    case 'expansion':
      return expansionProblem(node);
    case 'arithmetic_expansion':
      return arithmeticProblem(node, integer);
    case 'compound_statement':
      return node.text.startsWith('((') ? arithmeticProblem(node, integer) : undefined;
    case 'c_style_for_statement':
      return 'for (( )) evaluates arithmetic on names';
    case 'heredoc_redirect':
      return heredocProblem(node);
    default:
      return undefined;
  }
}
