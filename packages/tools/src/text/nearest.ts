// For an edit whose old_string is nowhere in the file: the stretch of lines it most likely meant,
// so the model re-reads those few lines instead of the whole file.

const squash = (line: string) => line.trim().replace(/\s+/g, ' ');
/** Beyond this many line comparisons the search is skipped: a miss must answer quickly. */
const MAX_COMPARISONS = 5_000_000;
const SHOWN_CHARS = 120;

export interface NearestMatch {
  /** 1-based first and last line of the file the old_string lines line up with. */
  first: number;
  last: number;
  /** 1-based file line where the first difference is, and that line's text; undefined when the file ends first. */
  differs?: { line: number; text: string };
}

/**
 * The window of file lines, as long as old_string, that shares the most lines with it (whitespace
 * ignored); undefined when no line is shared. Leading and trailing blank lines of old_string are
 * not counted.
 */
export function nearestMatch(text: string, old: string): NearestMatch | undefined {
  const oldLines = old.split('\n');
  while (oldLines.length && oldLines[oldLines.length - 1].trim() === '') oldLines.pop();
  while (oldLines.length && oldLines[0].trim() === '') oldLines.shift();
  const lines = text.split('\n');
  if (oldLines.length === 0 || lines.length * oldLines.length > MAX_COMPARISONS) return undefined;
  const wanted = oldLines.map(squash);
  const have = lines.map(squash);
  let best = -1;
  let bestScore = 0;
  // A window may run past the end of the file: old_string's first lines can still be the match.
  for (let i = 0; i < have.length; i++) {
    let score = 0;
    for (let j = 0; j < wanted.length && i + j < have.length; j++)
      if (wanted[j] !== '' && have[i + j] === wanted[j]) score++;
    if (score > bestScore) [best, bestScore] = [i, score];
  }
  if (best < 0) return undefined;
  const last = Math.min(best + oldLines.length, lines.length);
  let at = best;
  while (at < last && lines[at] === oldLines[at - best]) at++;
  if (at === last) return { first: best + 1, last };
  const line = lines[at];
  return {
    first: best + 1,
    last,
    differs: { line: at + 1, text: line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS)}…` : line },
  };
}
