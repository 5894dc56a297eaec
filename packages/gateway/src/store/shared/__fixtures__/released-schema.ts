// The schema each store had at every released version, frozen as a fingerprint (released-schema.json):
// a database the migration list builds must match it at every version, so a released step that
// changes shows here. The fingerprints were taken from the migrations as released, before the one
// list of store/shared/migrations.ts replaced them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Dialect } from '../dialect.js';

interface ReleasedSchema {
  /** Per dialect, version -> sha256 of the schema's lines (see fingerprint). */
  fingerprints: Record<Dialect, Record<string, string>>;
}

const RELEASED: ReleasedSchema = JSON.parse(readFileSync(new URL('./released-schema.json', import.meta.url), 'utf8'));

/** The released versions of `dialect` in order, each with its schema's fingerprint. */
export function releasedFingerprints(dialect: Dialect): Map<number, string> {
  const versions = Object.entries(RELEASED.fingerprints[dialect]).map(([v, hash]) => [Number(v), hash] as const);
  return new Map(versions.sort(([a], [b]) => a - b));
}

/** What a failed fingerprint says. */
export function changedStep(version: number): string {
  return `the schema at version ${version} is not the released one: a released step changed, or a new step's fingerprint is not yet in released-schema.json`;
}

/** SQL text as a schema compares it: comments dropped, white space folded. */
export function normalSql(sql: string | null): string {
  return (sql ?? '')
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),])\s*/g, '$1')
    .trim();
}

/** A schema's lines (normalized, in one order) as one sha256. */
export function fingerprint(lines: readonly string[]): string {
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
