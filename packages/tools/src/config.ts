// The tools package's sections of toolbelt.config.json, one per family that reads settings. The
// CLI composes them with the other packages' into the file's schema; a library user's config is
// checked here (its other keys belong to other packages and are left alone).
import { z } from 'zod';
import { parseConfigWith } from '@toolbelt/core';
import { lspSection } from './lsp/section.js';
import { sandboxSection } from './sandbox/section.js';
import { searchSection } from './search/section.js';
import { shellSection } from './shell/section.js';
import { webSection } from './web/section.js';
import { workspaceSection } from './workspace/section.js';

export const toolsConfigShape = {
  workspace: workspaceSection.optional(),
  shell: shellSection.optional(),
  sandbox: sandboxSection.optional(),
  search: searchSection.optional(),
  web: webSection.optional(),
  lsp: lspSection.optional(),
};

const toolsConfigSchema = z.object(toolsConfigShape);
export type ToolsConfig = z.infer<typeof toolsConfigSchema>;

/** The tools' sections of a whole config, checked; ConfigError names each problem's path. */
export function parseToolsConfig(config: unknown, source = 'the config'): ToolsConfig {
  return parseConfigWith(toolsConfigSchema, source, config ?? {});
}
