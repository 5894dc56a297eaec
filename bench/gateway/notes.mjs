// The tools the gateway benchmark calls: read_note reads a 1 KB file from disk per call; echo_note
// returns the same text from memory, so what is left is the gateway's own cost.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile as readFileAsync } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool } from '../../packages/core/dist/index.js';

/** A temp directory with notes.md, and the two tools over it. */
export function noteTools() {
  const dir = mkdtempSync(join(tmpdir(), 'tb-bench-gw-'));
  writeFileSync(join(dir, 'notes.md'), '# Notes\n\nThe quick brown fox jumps over the lazy dog.\n'.repeat(20));
  const input = {
    type: 'object',
    properties: { path: { type: 'string', pattern: '^[\\w.-]+$' } },
    required: ['path'],
    additionalProperties: false,
  };
  const readNote = defineTool({
    name: 'read_note',
    description: 'Reads a note from the notes directory.',
    effect: 'read',
    input,
    execute: async ({ path }) => readFileAsync(join(dir, path), 'utf8'),
  });
  const NOTE = readFileSync(join(dir, 'notes.md'), 'utf8');
  const echoNote = defineTool({
    name: 'echo_note',
    description: 'Returns the note, kept in memory.',
    effect: 'read',
    input,
    execute: async () => NOTE,
  });
  return { dir, readNote, echoNote };
}
