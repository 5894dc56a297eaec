// Structured data as the text a model reads. Pretty JSON repeats every key of every record and
// indents each line; TOON (Token-Oriented Object Notation) states the keys of a uniform array once,
// as a header, and lists the values as rows, about half the tokens for tabular data. It gains
// nothing on deeply nested or irregular data, so `toon` picks whichever of TOON and compact JSON is
// shorter, per value.
import { encode as encodeToon } from '@toon-format/toon';

export type StructuredText = 'json' | 'toon';
export const STRUCTURED_TEXTS: readonly StructuredText[] = ['json', 'toon'];

export function structuredText(value: unknown, as: StructuredText = 'json'): string {
  if (as === 'json') return JSON.stringify(value, null, 2);
  const json = JSON.stringify(value) ?? String(value);
  let toon: string;
  try {
    toon = encodeToon(value);
  } catch {
    return json;
  }
  return toon.length < json.length ? toon : json;
}
