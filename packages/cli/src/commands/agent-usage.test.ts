// `toolbelt agent` refuses what it cannot run with before it starts (exit 2, saying which flag), and
// names a gateway it cannot reach (exit 1).
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runMain } from '../__fixtures__/run-main.js';

const base = ['agent', '--provider', 'openai-chat', '--model', 'm', '--base-url', 'http://127.0.0.1:9/v1'];

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe('toolbelt agent', () => {
  it.each([
    [[...base, '--agent', 'planner'], 'name the gateway: --gateway URL'],
    [[...base, '--gateway', 'http://127.0.0.1:7077'], 'name the agent: --agent ID'],
    [['agent', '--gateway', 'http://127.0.0.1:7077', '--agent', 'p', '--model', 'm'], 'name the provider: --provider'],
    [[...base, '--gateway', 'http://x', '--agent', 'p', '--cycles', '0'], '--cycles must be an integer from 1'],
    [
      [...base, '--gateway', 'http://x', '--agent', 'p', '--wait', '90000'],
      '--wait must be an integer from 0 to 60000, not "90000"',
    ],
  ])('refuses %j with a usage error', async (argv, message) => {
    const r = await runMain(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it('names the gateway it cannot reach, and exits 1 (control: the same flags parse)', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await runMain([...base, '--gateway', url, '--agent', 'p', '--cycles', '1', '--wait', '0']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`cannot reach the gateway at ${url}`);
  });
});
