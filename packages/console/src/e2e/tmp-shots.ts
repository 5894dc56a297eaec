// Screenshots from the console's newer browser tests go under the system's temp folder (never the
// repository): $TOOLBELT_CONSOLE_SHOTS, else <tmp>/toolbelt-console/.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const TMP_SHOTS = process.env.TOOLBELT_CONSOLE_SHOTS ?? join(tmpdir(), 'toolbelt-console');

/** Saves what the viewport shows (not the whole page: what a person sees is the point). */
export async function tmpShot(page: Page, name: string): Promise<string> {
  mkdirSync(TMP_SHOTS, { recursive: true });
  const path = join(TMP_SHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}
