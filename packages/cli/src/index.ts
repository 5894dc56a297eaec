export { main, COMMANDS } from './main.js';
export { createRuntime, loadConfig, type Runtime, type ToolProvider } from './runtime.js';
export { terminalApprover, renderRequest } from './terminal/approver.js';
