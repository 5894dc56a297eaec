// The grammar node kinds the classifier judges: a closed table. Every named node of tree-sitter-
// bash's syntax tree has a kind; the walker (walk.ts) judges a node only when its kind is listed
// here, and a node of any other kind — one a newer grammar brings, say — makes the command ask.
// Unnamed nodes (`;`, `|`, `then`, quotes) are the grammar's punctuation and carry no meaning of
// their own. node-kinds.test.ts checks the table against the grammar's node-types.json.

/** Kind -> how the walker judges it. */
export const NODE_KINDS: ReadonlyMap<string, string> = new Map([
  // Structure: every statement in it is judged; in control flow, a cd inside makes the cwd unknown.
  ['program', 'the script: each statement judged'],
  ['list', '`a && b`, `a || b`: each side judged'],
  ['pipeline', 'each part judged; code piped into an interpreter is code'],
  ['subshell', '`( … )`: judged, its cd and variables kept inside'],
  ['compound_statement', '`{ …; }` judged; `(( … ))` is arithmetic (statements.ts)'],
  ['redirected_statement', 'a statement and its redirections, each judged'],
  ['negated_command', '`! cmd`: the command judged'],
  ['do_group', 'a loop body: each statement judged'],
  ['if_statement', 'each branch judged'],
  ['elif_clause', 'each branch judged'],
  ['else_clause', 'each branch judged'],
  ['while_statement', 'condition and body judged'],
  ['for_statement', 'the word list and the body judged, the variable bound to literal words (loops.ts)'],
  ['c_style_for_statement', 'asks: `for (( ))` evaluates arithmetic on names'],
  ['case_statement', 'the word and each branch judged'],
  ['case_item', 'a branch: its patterns and statements judged'],
  ['function_definition', 'its body judged as if it ran; the name shadows a command'],
  // Commands and statements.
  ['command', 'a simple command: judged by its card or handler (allow/, commands/)'],
  ['command_name', 'the name of a simple command'],
  ['variable_assignment', 'an assignment: a variable that changes how programs run asks (allow/variables.ts)'],
  ['variable_assignments', 'several assignments, each judged'],
  ['declaration_command', 'declare, export, local, readonly, typeset: judged (statements.ts)'],
  ['unset_command', 'unset: a subscript evaluated asks (statements.ts)'],
  ['test_command', '`[[ ]]`: arithmetic comparisons and -v on names ask (statements.ts)'],
  // Redirections.
  ['file_redirect', 'judged as a read or a write of its target (redirects.ts)'],
  ['heredoc_redirect', 'a here-document: unquoted, its expansions judged (statements.ts)'],
  ['herestring_redirect', '`<<<` word: judged as a word'],
  ['file_descriptor', 'the fd of a redirection'],
  ['heredoc_start', 'a here-document delimiter'],
  ['heredoc_body', 'a here-document body: its substitutions judged'],
  ['heredoc_content', 'literal text of a here-document'],
  ['heredoc_end', 'a here-document delimiter'],
  // Words (words.ts): literal, quoted, or computed; a computed word is judged where it lands.
  ['word', 'a literal word (globs expanded)'],
  ['number', 'a literal number'],
  ['string', '"…": its expansions judged'],
  ['string_content', 'literal text in "…"'],
  ['raw_string', "'…': literal"],
  ['ansi_c_string', "$'…': decoded, literal"],
  ['translated_string', '$"…": as "…"'],
  ['concatenation', 'words written together'],
  ['brace_expression', '{a..b}: expanded'],
  ['extglob_pattern', 'an extended glob pattern'],
  ['regex', 'the regular expression of `[[ =~ ]]`'],
  ['simple_expansion', '$name: a known value, or computed'],
  ['expansion', '${…}: plain forms only; indirection and assignment ask (statements.ts)'],
  ['special_variable_name', '$?, $#, $@ …'],
  ['variable_name', 'a name'],
  ['subscript', 'a[…]: the subscript judged as arithmetic'],
  ['array', '(…) of an array assignment: each word judged'],
  ['command_substitution', '$(…): the commands in it judged; its output is computed'],
  ['process_substitution', '<(…), >(…): the commands in it judged'],
  ['arithmetic_expansion', '$((…)): numbers and literal variables only (statements.ts)'],
  // Expressions, in `[[ ]]` and arithmetic.
  ['binary_expression', 'an operator and its two sides'],
  ['unary_expression', 'an operator and its operand'],
  ['ternary_expression', 'a ? b : c'],
  ['postfix_expression', 'i++, i--'],
  ['parenthesized_expression', '( … ) in an expression'],
  ['test_operator', '-f, -eq … in `[[ ]]`'],
  ['comment', 'ignored'],
  ['ERROR', 'a parse error: the command asks (read once from the root)'],
]);

/** Why a node of this kind is not judged: its kind is not in the table. */
export function nodeKindProblem(kind: string): string | undefined {
  return NODE_KINDS.has(kind) ? undefined : `the shell syntax ${kind} is not one we judge`;
}
