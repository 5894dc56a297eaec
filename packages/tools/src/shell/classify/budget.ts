// What one classification may cost: a 152-character brace expansion once made ten million words
// and held a gateway for 100 s and 2 GB. The script's size, its syntax tree, the words its brace
// expansions and globs make, and the time spent are all capped; over a cap the walk stops and the
// command is not a read (it asks), with a reason that says which cap it hit.

export interface ClassifyLimits {
  /** Characters of script parsed at all. */
  scriptChars: number;
  /** Syntax-tree nodes, counted over the script and every script nested in it (bash -c, eval). */
  nodes: number;
  /** Words made by brace expansion and glob matches, over the whole script. */
  words: number;
  /** Milliseconds of parsing and walking. */
  ms: number;
}

export const DEFAULT_LIMITS: ClassifyLimits = { scriptChars: 64 * 1024, nodes: 100_000, words: 10_000, ms: 2_000 };

/** Thrown from deep in the walk when a cap is hit; classify turns it into an `execute` verdict. */
export class TooLarge extends Error {}

export class Budget {
  readonly limits: ClassifyLimits;
  private readonly deadline: number;
  private words = 0;
  private nodes = 0;
  private ticks = 0;

  constructor(
    limits: Partial<ClassifyLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.deadline = now() + this.limits.ms;
  }

  /** Words made by an expansion; throws past the cap. */
  spendWords(n: number): void {
    this.words += n;
    if (this.words > this.limits.words)
      throw new TooLarge(`its brace expansions and globs make more than ${this.limits.words} words`);
  }

  /** Nodes of a parsed tree; throws past the cap. */
  spendNodes(n: number): void {
    this.nodes += n;
    if (this.nodes > this.limits.nodes) throw new TooLarge(`its syntax has more than ${this.limits.nodes} parts`);
  }

  /** Called per visited node: the clock is read every 64th call. */
  tick(): void {
    if ((++this.ticks & 63) === 0) this.checkTime();
  }

  checkTime(): void {
    if (this.expired()) throw new TooLarge(`checking it took longer than ${this.limits.ms} ms`);
  }

  expired(): boolean {
    return this.now() > this.deadline;
  }
}
