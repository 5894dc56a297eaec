export { runAgent, type AgentRun, type RunAgentOptions, type RunStop } from './run.js';
export { runLoop, type LoopOptions, type ToolRunner } from './loop.js';
export { modelHandle } from './model-handle.js';
export {
  runGatewayAgent,
  runCycle,
  type CycleRun,
  type GatewayAgent,
  type GatewayAgentOptions,
} from './gateway/agent.js';
export { inboxText } from './gateway/inbox-text.js';
export type * from './types.js';
export { modelContent } from './content.js';
export { anthropicModel, type AnthropicOptions } from './providers/anthropic.js';
export { openaiChatModel } from './providers/openai-chat.js';
export { openaiResponsesModel } from './providers/openai-responses.js';
export type { OpenAIOptions } from './providers/openai-client.js';
export { geminiModel, type GeminiOptions } from './providers/gemini.js';
export { ModelUnreachableError } from './providers/reach.js';
