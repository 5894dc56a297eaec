// LinkedIn job ids, from a posting URN, a job URL or the bare number.

/** The numeric id in a posting URN (urn:li:jobPosting:123) or a job URL (/jobs/view/some-title-123). */
export function jobIdOf(value: string): string | undefined {
  const m =
    /(?:jobPosting:|\/jobs\/view\/(?:[^/?#]*-)?|currentJobId=)(\d{5,})/.exec(value) ?? /^\s*(\d{5,})\s*$/.exec(value);
  return m?.[1];
}
