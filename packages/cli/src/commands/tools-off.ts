// What `toolbelt tools` says about tools that are absent for want of a credential, and what turns
// each on; and about integrations that are on but still need the user (Google not signed in).
import { integrationStatus } from '@toolbelt/integrations';
import { SEARCH_KEY_HINT, searchOffReason } from '@toolbelt/tools';
import type { Runtime } from '../runtime.js';

export interface OffEntry {
  /** The tools, as a person would look for them. */
  tools: string;
  /** What turns them on, or what is left to do. */
  note: string;
}

export async function offTools(
  rt: Pick<Runtime, 'config' | 'env' | 'stateDir' | 'registry'>,
): Promise<{ off: OffEntry[]; attention: OffEntry[] }> {
  const off: OffEntry[] = [];
  const attention: OffEntry[] = [];
  const searchOff = searchOffReason(rt.config.web ?? {}, rt.env);
  if (searchOff && !rt.registry.has('web_search'))
    off.push({ tools: 'web_search', note: `${searchOff}: ${SEARCH_KEY_HINT}` });
  for (const s of integrationStatus(rt.env, rt.stateDir)) {
    const entry = { tools: `${s.tools.join(', ')}`, note: s.note ?? '' };
    if (!s.on) off.push(entry);
    else if (s.note) attention.push(entry);
  }
  return { off, attention };
}

export function offText({ off, attention }: { off: OffEntry[]; attention: OffEntry[] }): string {
  const block = (title: string, list: OffEntry[]) =>
    list.length ? `\n${title}\n${list.map((e) => `  ${e.tools}\n    ${e.note}`).join('\n')}\n` : '';
  return block('Off, and what turns them on:', off) + block('On, but not ready:', attention);
}
