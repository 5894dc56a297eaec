// A read-only copy of plain data (a config section handed to a tool): a tool can read it but never
// change what the next call, or another tool, sees.

export type ReadonlyDeep<T> = T extends (infer U)[]
  ? readonly ReadonlyDeep<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> }
    : T;

export function frozenCopy<T>(value: T): ReadonlyDeep<T> {
  return deepFreeze(structuredClone(value)) as ReadonlyDeep<T>;
}

function deepFreeze(value: unknown): unknown {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
