// How deep and how large a JSON value from an untrusted caller may be. Schema validation, logging,
// hashing and JSON.stringify all recurse, so a value nested 100,000 levels overflows the stack in
// whichever runs first; a megabytes-long pattern costs seconds and gigabytes further on. This walk
// is iterative and stops at the first limit crossed, so it is safe on anything JSON.parse returns.

/** Levels of objects and arrays: `{}` is 1, `{"a":[1]}` is 2. */
export const MAX_INPUT_DEPTH = 64;
/** Roughly the input's size as JSON text: string and key lengths plus a little per value. */
export const MAX_INPUT_CHARS = 4 * 1024 * 1024;

export interface ShapeLimits {
  maxDepth?: number;
  maxChars?: number;
}

/**
 * What is wrong with `value`'s shape, as a sentence for the caller, or undefined when it is within
 * the limits. `what` names the value ("the input", "the body").
 */
export function shapeProblem(value: unknown, what = 'the input', limits: ShapeLimits = {}): string | undefined {
  const maxDepth = limits.maxDepth ?? MAX_INPUT_DEPTH;
  const maxChars = limits.maxChars ?? MAX_INPUT_CHARS;
  if (typeof value === 'string') return value.length > maxChars ? tooLarge(what, maxChars) : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  // Parallel stacks of containers and their depths; no recursion, no per-node allocation.
  const stack: object[] = [value];
  const depths: number[] = [1];
  let chars = 0;
  while (stack.length) {
    const node = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return tooDeep(what, maxDepth);
    if (Array.isArray(node)) {
      chars += 2 + node.length;
      for (let i = 0; i < node.length; i++) chars += visit(node[i], depth, stack, depths);
    } else {
      chars += 2;
      for (const key in node) {
        if (!Object.prototype.hasOwnProperty.call(node, key)) continue;
        chars += key.length + 4 + visit((node as Record<string, unknown>)[key], depth, stack, depths);
      }
    }
    if (chars > maxChars) return tooLarge(what, maxChars);
  }
  return undefined;
}

/** The size of a leaf; a container is pushed to be walked and counted later. */
function visit(v: unknown, depth: number, stack: object[], depths: number[]): number {
  if (typeof v === 'string') return v.length + 2;
  if (v !== null && typeof v === 'object') {
    stack.push(v);
    depths.push(depth + 1);
    return 0;
  }
  return 5;
}

function tooDeep(what: string, max: number): string {
  return `${what} nests objects and arrays more than ${max} levels deep; send a flatter value`;
}

function tooLarge(what: string, max: number): string {
  return `${what} is larger than ${max.toLocaleString('en-US')} characters; send less (e.g. a path instead of file contents)`;
}
