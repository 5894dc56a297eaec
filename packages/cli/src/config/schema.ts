// The one schema of toolbelt.config.json, composed from the sections each package owns: core
// (mode, rules, hardDeny, toolSettings, limits), tools (workspace, shell, sandbox, search, web, lsp),
// mcp (mcpServers), gateway (gateway, tools) and integrations (integrations). A key no package claims is reported with its path.
import { z } from 'zod';
import { coreConfigShape } from '@toolbelt/core';
import { gatewayConfigShape } from '@toolbelt/gateway/config';
import { mcpConfigShape } from '@toolbelt/mcp/config';
import { integrationsConfigShape } from '@toolbelt/integrations/config';
import { toolsConfigShape } from '@toolbelt/tools';

export const configShape = {
  $schema: z.string().describe('The JSON Schema of this file, for editors (toolbelt init writes it)').optional(),
  ...coreConfigShape,
  ...toolsConfigShape,
  ...mcpConfigShape,
  ...gatewayConfigShape,
  ...integrationsConfigShape,
};

export const configSchema = z.strictObject(configShape);
export type ToolbeltConfig = z.infer<typeof configSchema>;
