import { describe, expect, it } from 'vitest';
import { bashInvocation, ulimitFlags } from './limits.js';

describe('resource limits', () => {
  it('runs plain bash -c when there are none', () => {
    expect(bashInvocation('echo hi')).toEqual({ file: 'bash', args: ['-c', 'echo hi'] });
  });

  it('turns limits into ulimit flags (memory in KiB)', () => {
    expect(ulimitFlags({ cpuSeconds: 5, memoryMb: 512, openFiles: 64 })).toEqual(['-t', '5', '-v', '524288', '-n', '64']);
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => ulimitFlags({ cpuSeconds: 0 })).toThrow(/cpuSeconds must be a positive integer/);
    expect(() => ulimitFlags({ memoryMb: 1.5 })).toThrow(/memoryMb/);
  });
});
