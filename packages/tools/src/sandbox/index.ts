// The sandbox for commands and stdio MCP servers: bubblewrap with the workspace writable (or
// nothing, for a read), the rest read-only, a private /tmp, no network unless allowed, secrets
// hidden, and resource limits.
export { Sandbox, type Confinement } from './sandbox.js';
export { sandboxSettings, SANDBOX_LIMITS_DEFAULT, HIDDEN_DEFAULT, type SandboxSettings } from './settings.js';
export { sandboxSection, type SandboxMode, type SandboxSection } from './section.js';
export { probeSandbox, bwrapVersion, findProgram, type SandboxStatus } from './probe.js';
