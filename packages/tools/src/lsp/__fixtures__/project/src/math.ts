/** Adds two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}

export const PI = 3.14159;
