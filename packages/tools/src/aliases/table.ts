// What models trained on other agents call our built-ins, and how they spell the parameters:
// Claude Code (Read, Write, Edit, MultiEdit, Bash, Glob, Grep, LS, WebFetch, WebSearch), gemini-cli
// (read_file, write_file, replace, run_shell_command, search_file_content, glob, list_directory,
// web_fetch, google_web_search), opencode (read, write, edit, multiedit, bash, glob, grep, list,
// webfetch), Codex (shell, shell_command, exec_command, list_dir, grep_files), OpenHands
// (execute_bash, str_replace_editor, web_read) and the specifications' own names (search_files,
// hover, definition, references, shell, bash, edit). camelCase forms of our parameters need no entry.
import type { ToolAliases } from '@toolbelt/core';
import {
  argvToCommand,
  createFlag,
  drop,
  editsInOwnWords,
  expectedReplacements,
  fixed,
  negate,
  pipe,
  secondsToMs,
  urlFromPrompt,
  viewRange,
} from './shapes.js';

const PATH = {
  file_path: 'path',
  filePath: 'path',
  absolute_path: 'path',
  target_file: 'path',
  dir_path: 'path',
  directory: 'path',
};
const editor = (command: string) => (input: Record<string, unknown>) => input.command === command;
const claudeBackground = (input: Record<string, unknown>) => input.run_in_background === true;

const SHELL_PARAMS = { timeout: 'timeout_ms', workdir: 'cwd', directory: 'cwd', dir_path: 'cwd', cmd: 'command' };
const shellNoise = drop(
  'description',
  'is_input',
  'security_risk',
  'run_in_background',
  'justification',
  'with_escalated_permissions',
);

export const BUILTIN_ALIASES: Readonly<Record<string, ToolAliases>> = {
  read_file: {
    names: [
      'Read',
      'read',
      'view_file',
      { name: 'str_replace_editor', when: editor('view'), input: pipe(drop('command'), viewRange) },
    ],
    params: { ...PATH, start_line: 'offset', max_lines: 'limit' },
  },
  write_file: {
    names: [
      'Write',
      'write',
      'create_file',
      { name: 'str_replace_editor', when: editor('create'), input: drop('command') },
    ],
    params: { ...PATH, file_text: 'content', text: 'content' },
    input: drop('createDirectories', 'create_directories'),
  },
  edit_file: {
    names: [
      'Edit',
      'edit',
      'MultiEdit',
      'multiedit',
      'replace',
      'str_replace',
      { name: 'str_replace_editor', when: editor('str_replace'), input: drop('command') },
    ],
    params: { ...PATH, old: 'old_string', old_str: 'old_string', new: 'new_string', new_str: 'new_string' },
    input: pipe(expectedReplacements, editsInOwnWords),
  },
  list_directory: {
    names: ['LS', 'list', 'list_dir', 'list_files', 'ls'],
    params: PATH,
    input: drop('ignore', 'respect_git_ignore', 'offset', 'limit'),
  },
  copy_file: {
    params: { dest: 'destination', target: 'destination', to: 'destination', src: 'source', from: 'source' },
  },
  move_file: {
    names: ['rename_file'],
    params: { dest: 'destination', target: 'destination', to: 'destination', src: 'source', from: 'source' },
  },
  delete_file: { params: PATH },
  create_directory: { names: ['mkdir'], params: PATH },
  append_file: { params: { ...PATH, text: 'content' } },
  glob: {
    names: ['search_files', 'find_files'],
    params: { dir_path: 'path', directory: 'path', max_results: 'limit', maxResults: 'limit' },
    input: pipe(negate('respect_git_ignore', 'include_ignored'), drop('case_sensitive')),
  },
  grep: {
    names: [
      'search_file_content',
      'search_code',
      { name: 'grep_files', input: fixed({ output_mode: 'files_with_matches' }) },
    ],
    params: {
      ...PATH,
      '-i': 'case_insensitive',
      ignore_case: 'case_insensitive',
      '-C': 'context',
      '-A': 'after',
      '-B': 'before',
      head_limit: 'max_results',
      limit: 'max_results',
      include: 'glob',
    },
    input: drop('-n'),
  },
  shell_exec: {
    names: [
      'shell',
      { name: 'bash', when: (i) => !claudeBackground(i) },
      'run_shell_command',
      { name: 'execute_bash', input: secondsToMs },
      'shell_command',
      'exec_command',
      'run_terminal_cmd',
      'execute_command',
    ],
    params: SHELL_PARAMS,
    input: pipe(argvToCommand, shellNoise),
  },
  shell_background: {
    names: [{ name: 'bash', when: claudeBackground }],
    params: { workdir: 'cwd', directory: 'cwd' },
    input: pipe(shellNoise, drop('timeout')),
  },
  git_branch: { input: createFlag },
  code_lookup: {
    names: [
      { name: 'hover', input: fixed({ what: 'hover' }) },
      { name: 'definition', input: fixed({ what: 'definition' }) },
      { name: 'goto_definition', input: fixed({ what: 'definition' }) },
      { name: 'references', input: fixed({ what: 'references' }) },
      { name: 'find_references', input: fixed({ what: 'references' }) },
    ],
    params: { ...PATH, col: 'column', character: 'column' },
  },
  web_fetch: {
    names: ['WebFetch', 'webfetch', 'fetch', 'fetch_url', 'web_read'],
    params: { max_length: 'maxChars', max_chars: 'maxChars' },
    input: pipe(urlFromPrompt, drop('prompt', 'format', 'timeout')),
  },
  web_search: {
    names: ['WebSearch', 'google_web_search', 'websearch', 'search_web'],
    params: { num_results: 'count', max_results: 'count', maxResults: 'count', limit: 'count', q: 'query' },
  },
};
