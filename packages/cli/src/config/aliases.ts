// Names from other designs that people bring in their configs, accepted as aliases of ours. This
// is the only place that knows them: the file is checked with them (so a problem is reported where
// its author wrote it) and turned into the one form the rest of toolbelt reads.
//   mode "none" -> "ask", "all" -> "yolo" ("safe" means the same in both)
//   mcp: { servers: [{ name, ...server }] } -> mcpServers: { [name]: server }
import { z } from 'zod';
import { canonicalMode, MODE_ALIASES, MODES, mustBe, nonEmptyString, oneOf } from '@toolbelt/core';
import { mcpServerSchema } from '@toolbelt/mcp/config';
import { configSchema, type ToolbeltConfig } from './schema.js';

// The mode aliases live with the policy, which takes them too (the classic API's modes).
export { canonicalMode, MODE_ALIASES };

const modeOrAlias = oneOf([...MODES, ...Object.keys(MODE_ALIASES)] as [string, ...string[]]);

const mcpSection = z
  .strictObject({
    servers: z.array(
      mcpServerSchema.extend({ name: nonEmptyString("the server's name") }),
      mustBe('a list of servers, each with a name'),
    ),
  })
  .describe("The same servers as mcpServers, as a list with names (another design's form)");

const fileShape = configSchema.extend({
  mode: modeOrAlias.describe('ask, safe, auto-edit or yolo; "none" means ask, "all" means yolo').optional(),
  mcp: mcpSection.optional(),
});

type FileConfig = z.infer<typeof fileShape>;

/** Two servers of the same name, in mcp.servers or across it and mcpServers, are one too many. */
function checkServerNames(config: FileConfig, ctx: z.RefinementCtx): void {
  const seen = new Map<string, string>(
    Object.keys(config.mcpServers ?? {}).map((name) => [name, `mcpServers.${name}`]),
  );
  config.mcp?.servers.forEach((server, i) => {
    const other = seen.get(server.name);
    if (other)
      ctx.addIssue({
        code: 'custom',
        path: ['mcp', 'servers', i, 'name'],
        message: `"${server.name}" is also ${other}; give each server its own name, or keep one of them`,
      });
    else seen.set(server.name, `mcp.servers[${i}]`);
  });
}

function toCanonical({ mcp, mode, ...rest }: FileConfig): ToolbeltConfig {
  const servers = mcp?.servers.map(({ name, ...server }) => [name, server] as const) ?? [];
  return {
    ...rest,
    ...(mode !== undefined ? { mode: canonicalMode(mode) } : {}),
    ...(rest.mcpServers || servers.length
      ? { mcpServers: { ...rest.mcpServers, ...Object.fromEntries(servers) } }
      : {}),
  };
}

/** The file as people may write it: our names and the aliases, read as our names. */
export const configFileSchema = fileShape.superRefine(checkServerNames).transform(toCanonical);
