// GET /api/tools: the registry in our own shape, or in a provider's format.
import { PROVIDER_FORMATS, toProviderFormats, usualEffectOf, type ProviderFormat } from '@toolbelt/core';
import type { ProviderToolList, ToolInfo, ToolList } from '@toolbelt/protocol';
import type { DeclaredTool } from '../config.js';
import { isVisibleTool } from '../declared/visible.js';
import { ApiError } from '../http/errors.js';
import type { Domain } from './context.js';

export function listTools(
  d: Domain,
  declared: ReadonlyMap<string, DeclaredTool>,
  format: string | undefined,
): ToolList | ProviderToolList {
  const tools = d.registry.list();
  if (format !== undefined) {
    if (!PROVIDER_FORMATS.includes(format as ProviderFormat)) {
      throw new ApiError(400, 'BAD_REQUEST', `unknown format "${format}"; use one of ${PROVIDER_FORMATS.join(', ')}`);
    }
    return { tools: toProviderFormats(tools, format as ProviderFormat) };
  }
  return {
    tools: tools.map((t): ToolInfo => {
      const spec = declared.get(t.name);
      return {
        name: t.name,
        ...(t.title ? { title: t.title } : {}),
        description: t.description,
        inputSchema: t.jsonSchema,
        // The usual effect; perCall says each call's effect is judged from its input.
        effect: usualEffectOf(t) ?? 'per-call',
        perCall: typeof t.effect !== 'string',
        ...(t.category ? { category: t.category } : {}),
        visible: isVisibleTool(t),
        ...(spec
          ? {
              executionType: spec.executionType,
              isAsync: spec.isAsync ?? false,
              ...(spec.timeout ? { timeout: spec.timeout } : {}),
            }
          : {}),
      };
    }),
  };
}
