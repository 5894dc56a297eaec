// The sandbox for commands and stdio MCP servers: bubblewrap with the workspace writable (or
// nothing, for a read), the rest read-only, a private /tmp, no network unless allowed, secrets
// hidden, and resource limits.
export { Sandbox, type ConfineRequest, type Confinement, type Profile, type SandboxOptions } from './sandbox.js';
export { sandboxSettings, SANDBOX_LIMITS_DEFAULT, HIDDEN_DEFAULT, type SandboxSettings } from './settings.js';
export { sandboxSection, SANDBOX_MODES, type SandboxMode, type SandboxSection } from './section.js';
export { probeSandbox, bwrapVersion, findProgram, hardeningCandidates, type SandboxStatus } from './probe.js';
export { sandboxNotes } from './explain.js';
export { bwrapArgs, bwrapInvocation, type BwrapProfile, type HiddenPath } from './bwrap.js';
export { SecretScanner, SCAN_BUDGET_DEFAULT, type ScanBudget, type ScanResult } from './secrets.js';
export { ROOT_ONLY } from './system.js';
