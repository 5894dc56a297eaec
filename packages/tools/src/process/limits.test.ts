import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { bashInvocation, execInvocation, ulimitFlags } from './limits.js';
import { trustedProgram } from './programs.js';

describe('resource limits', () => {
  it('runs plain bash -c when there are none, bash from a fixed place with $0 "bash"', () => {
    expect(bashInvocation('echo hi')).toEqual({ file: trustedProgram('bash'), args: ['-c', 'echo hi', 'bash'] });
    expect(trustedProgram('bash')).toMatch(/^\/.*\/bash$/);
  });

  it('turns limits into ulimit flags (memory in KiB)', () => {
    expect(ulimitFlags({ cpuSeconds: 5, memoryMb: 512, openFiles: 64 })).toEqual([
      '-t',
      '5',
      '-v',
      '524288',
      '-n',
      '64',
    ]);
  });

  it("sets them in the script's own bash, keeping $0 and line numbers, soft and hard", () => {
    const inv = bashInvocation(
      'echo "$0 $LINENO"; ulimit -n; ulimit -Hn\necho $LINENO; ulimit -n 64 2>/dev/null || echo cannot raise',
      { openFiles: 32 },
    );
    expect(spawnSync(inv.file, inv.args, { encoding: 'utf8' }).stdout).toBe('bash 1\n32\n32\n2\ncannot raise\n');
  });

  it('sets data size and process count too (RLIMIT_DATA in KiB, RLIMIT_NPROC)', () => {
    expect(ulimitFlags({ dataMb: 2, processes: 10 })).toEqual(['-d', '2048', '-u', '10']);
  });

  it('runs a program with its arguments unchanged under the limits', () => {
    const inv = execInvocation('bash', ['-c', 'ulimit -d; ulimit -n; ulimit -u; printf "%s|" "$@"', 'x', 'a b', '$c'], {
      dataMb: 64,
      openFiles: 40,
      processes: 300,
    });
    const r = spawnSync(inv.file, inv.args, { encoding: 'utf8' });
    expect(r.stdout).toBe('65536\n40\n300\na b|$c|');
    expect(execInvocation('node', ['-v'])).toEqual({ file: 'node', args: ['-v'] });
  });

  it('a program that is not there is named once, plainly, with exit 127', () => {
    const inv = execInvocation('toolbelt-no-such-command', ['x'], { openFiles: 40 });
    const r = spawnSync(inv.file, inv.args, { encoding: 'utf8' });
    expect(r.status).toBe(127);
    expect(r.stderr).toBe('toolbelt: the command "toolbelt-no-such-command" was not found\n');
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => ulimitFlags({ cpuSeconds: 0 })).toThrow(/cpuSeconds must be a positive integer/);
    expect(() => ulimitFlags({ memoryMb: 1.5 })).toThrow(/memoryMb/);
  });
});
