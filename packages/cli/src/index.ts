export { main, COMMANDS } from './main.js';
export { createRuntime, loadConfig, type Runtime, type ToolProvider } from './runtime.js';
export { terminalApprover, renderRequest } from './terminal/approver.js';
export { configSchema, type ToolbeltConfig } from './config/schema.js';
export { configFileSchema, MODE_ALIASES } from './config/aliases.js';
export { configJsonSchema } from './config/json-schema.js';
export { parseConfig } from './config/load.js';
