// 1 GB of output through shell_exec, measured in a process of its own: the memory stays bounded
// (the head and tail in memory, the rest saved to a file), and the result says where it went.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./__fixtures__/big-output.mjs', import.meta.url));
const GB = 1_000_000_000;

describe('shell_exec with 1 GB of output', () => {
  it('peaks under 100 MB of RSS and names the file that holds the output', () => {
    const child = spawnSync(process.execPath, [fixture, String(GB)], { encoding: 'utf8', timeout: 120_000 });
    expect(child.status, child.stderr).toBe(0);
    const m = JSON.parse(child.stdout) as {
      status: string;
      text: string;
      file: string;
      fileBytes: number;
      fileGone: boolean;
      peakMb: number;
      beforeMb: number;
    };
    console.log(
      `1 GB through shell_exec: peak RSS ${m.peakMb.toFixed(1)} MB (${m.beforeMb.toFixed(1)} MB before the call)`,
    );
    expect(m.peakMb).toBeLessThan(100);
    expect(m.status).toBe('success');
    expect(m.text.startsWith('y\ny\n')).toBe(true);
    expect(m.text).toContain(
      `bytes omitted; ${(GB + 8).toLocaleString('en-US')} bytes in total; the first 268,435,456 in ${m.file} ...]`,
    );
    expect(m.text).toMatch(
      /\ny\nthe-end\n\[exit code 0\]\n\[the output above was cut; saved: stdout \(the first 268,435,456 bytes\) in \/.+\.log\. Search it with shell_exec/,
    );
    // The default limit of the file (256 MiB) was written, and removed when the executor closed.
    expect(m.fileBytes).toBe(256 * 1024 * 1024);
    expect(m.fileGone).toBe(true);
  }, 150_000);
});
