export * from './parts.js';
export * from './section.js';
export * from './apply.js';
export { ConfigError, configProblems, configSection, parseConfigWith, pathOf } from './problems.js';
