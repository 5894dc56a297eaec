// A file whose tests all pass, next to one that fails only in its hook.
import { expect, it } from 'vitest';

it('passes too', () => {
  expect('a').toBe('a');
});
