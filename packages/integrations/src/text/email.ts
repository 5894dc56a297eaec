// Email addresses as the tools take them: name@domain.tld, nothing around it (no display name, no
// commas or angle brackets that would smuggle in a second recipient or a header). Checked in
// `validate` rather than as a schema pattern, which every definition would carry.
import { z } from 'zod';

const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[A-Za-z]{2,}$/;

/** One address or a list; always a list once parsed. */
export const emailList = (min: number) =>
  z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string()).min(min).max(50));

/** A message naming the first value that is no address, or undefined when all are. */
export function badAddress(fields: Record<string, string[] | undefined>): string | undefined {
  for (const [field, list] of Object.entries(fields)) {
    const bad = list?.find((a) => !ADDRESS.test(a));
    if (bad !== undefined)
      return `${field}: "${bad.slice(0, 80)}" is not an email address; write it as name@example.com`;
  }
  return undefined;
}
