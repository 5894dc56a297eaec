// `toolbelt tools`: what is registered, with effect and description, then what is off and why.
import { toProviderFormats, usualEffectOf, PROVIDER_FORMATS, type ProviderFormat, type Tool } from '@toolbelt/core';
import { COMMON_OPTIONS, EXIT, UsageError, type Command } from '../command.js';
import { createRuntime } from '../runtime.js';
import { defaultProviders } from '../providers.js';
import { offText, offTools } from './tools-off.js';

const PER_CALL_NOTE = "* the usual effect; each call's effect is judged from its input";

/** The effect column: a per-call effect shows its usual effect marked `*`, or `per-call` when it declares none. */
function effectLabel(tool: Tool): string {
  const usual = usualEffectOf(tool);
  if (typeof tool.effect === 'string') return tool.effect;
  return usual ? `${usual}*` : 'per-call';
}

export const toolsCommand: Command = {
  name: 'tools',
  usage: `Usage: toolbelt tools [--json] [--format ${PROVIDER_FORMATS.join('|')}] [--root DIR] [--config FILE]`,
  options: { ...COMMON_OPTIONS, json: { type: 'boolean' }, format: { type: 'string' } },
  async run(values, _pos, io) {
    const format = values.format as string | undefined;
    if (format && !PROVIDER_FORMATS.includes(format as ProviderFormat)) {
      throw new UsageError(`unknown format "${format}"; use one of ${PROVIDER_FORMATS.join(', ')}`);
    }
    const rt = await createRuntime(values, { providers: defaultProviders() });
    try {
      const tools = rt.registry.list();
      if (format) {
        io.stdout.write(JSON.stringify(toProviderFormats(tools, format as ProviderFormat), null, 2) + '\n');
      } else if (values.json) {
        const rows = tools.map((t) => ({
          name: t.name,
          effect: usualEffectOf(t) ?? 'per-call',
          perCall: typeof t.effect !== 'string',
          category: t.category,
          description: t.description,
          inputSchema: t.jsonSchema,
        }));
        io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      } else if (tools.length === 0) {
        io.stdout.write('No tools registered.\n');
      } else {
        const width = Math.max(...tools.map((t) => t.name.length));
        for (const t of tools) {
          const first = t.description.split('\n')[0];
          io.stdout.write(`${t.name.padEnd(width)}  ${effectLabel(t).padEnd(12)}  ${first}\n`);
        }
        if (tools.some((t) => effectLabel(t).endsWith('*'))) io.stdout.write(`\n${PER_CALL_NOTE}\n`);
      }
      if (!format && !values.json) io.stdout.write(offText(await offTools(rt)));
      return EXIT.ok;
    } finally {
      await rt.close();
    }
  },
};
