// The migrations each store had released before both were written as one list, read from their frozen
// copies: a database built with them must open and upgrade under today's list.
import { readFileSync } from 'node:fs';
import type { Dialect, Migration } from '../dialect.js';

export function releasedMigrations(dialect: Dialect): Migration[] {
  const text = readFileSync(new URL(`./released-${dialect}.sql`, import.meta.url), 'utf8');
  const parts = text.split(/^-- version (\d+): (.*)$/m);
  const out: Migration[] = [];
  for (let i = 1; i < parts.length; i += 3)
    out.push({ version: Number(parts[i]), name: parts[i + 1], sql: parts[i + 2] });
  return out;
}

/** SQL text as a schema compares it: comments dropped, white space folded. */
export function normalSql(sql: string | null): string {
  return (sql ?? '')
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),])\s*/g, '$1')
    .trim();
}
