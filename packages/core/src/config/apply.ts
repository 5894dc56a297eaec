// What core's sections of toolbelt.config.json (section.ts) mean at run time, in one place. Every
// front end builds its policy, executor and tools through these: the CLI's runtime, and the gateway
// when it builds an executor of its own. A key read anywhere else is a key one of them would miss.
import type { LogRedaction } from '../executor/log.js';
import { DEFAULT_MODE } from '../policy/defaults.js';
import type { Mode, Rule } from '../policy/types.js';
import type { StructuredText } from '../structured-text.js';
import type { Tool } from '../tool.js';
import type { CoreConfig } from './section.js';

/** What the config sets of an executor (`limits`, `structuredText`, `aliases`, `log`); the executor shows them as `settings`. */
export interface ExecutorSettings {
  maxOutputChars?: number;
  defaultTimeoutMs?: number;
  approvalTimeoutMs?: number;
  structuredText?: StructuredText;
  aliases?: boolean;
  logRedaction?: LogRedaction;
}

/** The sections executorOptionsFrom reads. */
export type ExecutorSections = Pick<CoreConfig, 'limits' | 'structuredText' | 'aliases' | 'log'>;

/** The executor's settings from `limits`, `structuredText`, `aliases` and `log`; keys left out keep the executor's defaults. */
export function executorOptionsFrom(config: ExecutorSections): ExecutorSettings {
  const limits = config.limits ?? {};
  return {
    ...(limits.maxOutputChars ? { maxOutputChars: limits.maxOutputChars } : {}),
    ...(limits.defaultTimeoutMs ? { defaultTimeoutMs: limits.defaultTimeoutMs } : {}),
    ...(limits.approvalTimeoutMs ? { approvalTimeoutMs: limits.approvalTimeoutMs } : {}),
    ...(config.structuredText ? { structuredText: config.structuredText } : {}),
    ...(config.aliases === false ? { aliases: false } : {}),
    ...(config.log ? { logRedaction: logRedactionFrom(config.log) } : {}),
  };
}

function logRedactionFrom(log: NonNullable<CoreConfig['log']>): LogRedaction {
  return {
    ...(log.redact ? { params: log.redact } : {}),
    ...(log.results === false ? { results: false } : {}),
  };
}

/** The sections policyOptionsFrom reads. */
export type PolicySections = Pick<CoreConfig, 'mode' | 'rules' | 'hardDeny'>;

/** What the policy is built from: its mode, rules and hard denies (the defaults are the Policy's own). */
export interface PolicySettings {
  mode: Mode;
  rules: Rule[];
  hardDeny: Rule[];
}

/**
 * The policy's settings from `mode`, `rules` and `hardDeny`. `more.mode` (a --mode flag) overrides the
 * config's; `more.rules` come from other packages' sections (the tools package's shell.allow/deny) and
 * go first, so the config's own rules, matched last to first, win over them.
 */
export function policyOptionsFrom(config: PolicySections, more: { mode?: Mode; rules?: Rule[] } = {}): PolicySettings {
  return {
    mode: more.mode ?? config.mode ?? DEFAULT_MODE,
    rules: [...(more.rules ?? []), ...(config.rules ?? [])],
    hardDeny: [...(config.hardDeny ?? [])],
  };
}

/**
 * `toolSettings` as a function of a tool, applied to every tool as it joins a registry: undefined
 * when the tool is disabled; timeoutMs, retry and cacheTtlMs override its own.
 */
export function toolSettingsFrom(settings: CoreConfig['toolSettings']): (tool: Tool) => Tool | undefined {
  return (tool) => {
    const s = settings?.[tool.name];
    if (!s) return tool;
    if (s.enabled === false) return undefined;
    return Object.freeze({
      ...tool,
      ...(s.timeoutMs ? { timeoutMs: s.timeoutMs } : {}),
      ...(s.retry ? { retry: s.retry } : {}),
      ...(s.cacheTtlMs !== undefined ? { cacheTtlMs: s.cacheTtlMs } : {}),
    });
  };
}
