import { spawn } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pgAvailable, PG_URL } from '../../packages/gateway/src/__fixtures__/pg.js';
import { backendsOf, clientPorts, cpuSeconds, mainThreadTimes } from './proc-cpu.mjs';

// What the cost benchmark reads from /proc, checked against real processes and a real PostgreSQL.
describe('CPU of whole processes from /proc', () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterAll(() => children.forEach((c) => c.kill()));
  const start = async (code: string) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(child);
    await once(child.stdout!, 'data');
    return child.pid!;
  };

  it('counts the CPU of a busy process and not of an idle one', async () => {
    // Told to, spins for 300 ms of its own CPU (not of the wall: the machine may be busy), then says so.
    const spin = `const u = () => process.cpuUsage().user / 1000; const t = u(); while (u() - t < 300) {} console.log('done');`;
    const busy = await start(`console.log('ready'); process.stdin.once('data', () => { ${spin} });`);
    const idle = await start(`console.log('ready'); process.stdin.once('data', () => {});`);
    const [b0, i0] = [cpuSeconds(busy)!, cpuSeconds(idle)!];
    const child = children.find((c) => c.pid === busy)!;
    child.stdin!.write('go\n');
    await once(child.stdout!, 'data');
    expect(cpuSeconds(busy)! - b0).toBeGreaterThan(0.25);
    // The control: a process that only sleeps gains (next to) nothing meanwhile.
    expect(cpuSeconds(idle)! - i0).toBeLessThan(0.05);
    expect(mainThreadTimes(busy)!.run).toBeGreaterThan(0.25);
  });

  it('says undefined for a process that is gone', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    await once(child, 'exit');
    expect(cpuSeconds(child.pid!)).toBeUndefined();
  });
});

describe.skipIf(!pgAvailable)('the PostgreSQL backends serving a process', () => {
  const query = async (text: string, params: unknown[]) => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      return (await c.query(text, params)).rows;
    } finally {
      await c.end();
    }
  };

  it('finds the backend of each of its connections, and none for a process without any', async () => {
    const port = Number(new URL(PG_URL).port || 5432);
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const own = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      expect(clientPorts(process.pid, port).length).toBeGreaterThan(0);
      expect(await backendsOf([process.pid], port, query)).toContain(own);
    } finally {
      await client.end();
    }
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      expect(await backendsOf([other.pid!], port, query)).toEqual([]);
    } finally {
      other.kill();
    }
  });
});
