// Strings every match of a pattern must contain, so the JS engine can skip a file, or a line,
// by searching its raw bytes (memmem) before decoding anything. Like ripgrep, it searches for the
// literal whose rarest byte is rarest, and checks the others only on lines that hold it.
import type { Token } from './pattern.js';

export interface Literals {
  /** Every match contains at least one of these (one per top-level alternative). */
  any: string[];
  /** Every match also contains all of these. */
  all: string[];
}

// Bytes roughly from most to least common in source code and prose; anything absent is rarer.
const COMMON = ' etaoinsrlhdcumpfgyw.,();=b"\'_v/k-:{}x0>1<*[]2jq#z$+ETSAIRNOCLDPMFU3456789!?@&%|\\^~`';
const rank = new Map<string, number>([...COMMON].map((c, i) => [c, i]));
const rarity = (s: string) => Math.max(...[...s].map((c) => rank.get(c) ?? COMMON.length));

function byRarity(a: string, b: string): number {
  return rarity(b) - rarity(a) || b.length - a.length;
}

/** The runs of plain characters every match must contain, outside groups and repetition. */
function requiredRuns(tokens: Token[]): string[] {
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run) runs.push(run);
    run = '';
  };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok.t === 'char' && tokens[i + 1]?.t !== 'quant') {
      run += String.fromCodePoint(tok.cp);
      continue;
    }
    end();
    if (tok.t === 'open') {
      // Skip the whole group: what is inside may be optional.
      let depth = 1;
      while (depth > 0 && ++i < tokens.length) depth += tokens[i].t === 'open' ? 1 : tokens[i].t === 'close' ? -1 : 0;
    }
  }
  end();
  return runs.filter((r) => !r.includes('\n'));
}

export function requiredLiterals(tokens: Token[], caseInsensitive: boolean): Literals | undefined {
  if (caseInsensitive) return undefined;
  const branches: Token[][] = [[]];
  let depth = 0;
  for (const tok of tokens) {
    if (tok.t === 'open') depth++;
    if (tok.t === 'close') depth--;
    if (tok.t === 'alt' && depth === 0) branches.push([]);
    else branches[branches.length - 1].push(tok);
  }
  const runs = branches.map((b) => requiredRuns(b).sort(byRarity));
  if (runs.some((r) => r.length === 0)) return undefined;
  if (runs.length === 1) return { any: [runs[0][0]], all: runs[0].slice(1) };
  return { any: [...new Set(runs.map((r) => r[0]))], all: [] };
}
