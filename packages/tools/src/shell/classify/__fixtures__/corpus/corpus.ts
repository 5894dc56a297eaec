// The corpus of real shell commands (commands.jsonl, built by build-corpus.mjs from the sources
// named in SOURCES.md) and the files the workspace must hold for them (workspace.json).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CorpusCommand {
  id: number;
  /** The command with its placeholders filled: what is classified and run. */
  command: string;
  /** The command as its source prints it. */
  raw: string;
  repo: string;
  path: string;
  commit: string;
  licence: string;
}

const here = dirname(fileURLToPath(import.meta.url));

export function loadCorpus(): CorpusCommand[] {
  return readFileSync(join(here, 'commands.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CorpusCommand);
}

/** Workspace-relative path → 'file' or 'dir'. */
export function loadWorkspaceEntries(): Record<string, 'file' | 'dir'> {
  return JSON.parse(readFileSync(join(here, 'workspace.json'), 'utf8')) as Record<string, 'file' | 'dir'>;
}
