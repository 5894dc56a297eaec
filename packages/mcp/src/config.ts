// The mcp package's section of toolbelt.config.json: the MCP servers whose tools are proxied. Zod
// and core only: the CLI loads it for every command (as @toolbelt/mcp/config).
import { z } from 'zod';
import {
  effectSchema,
  httpRetrySchema,
  mustBe,
  oneOf,
  positiveInt,
  resourceLimitsSchema,
  stringList,
} from '@toolbelt/core';

export const mcpServerSchema = z.strictObject({
  command: z.string().describe('stdio: the program that starts the server').optional(),
  args: stringList().optional(),
  env: z
    .record(z.string(), z.string())
    .describe("stdio: the server's environment (it inherits none of toolbelt's secrets)")
    .optional(),
  cwd: z
    .string()
    .describe('stdio: where the server starts, relative to the first workspace root, inside the roots')
    .optional(),
  url: z.url(mustBe('a URL')).describe("http or sse: the server's address").optional(),
  headers: z.record(z.string(), z.string()).optional(),
  transport: oneOf(['stdio', 'http', 'sse']).describe('Default: stdio with a command, http with a url').optional(),
  allowedTools: stringList('a list of tool names').describe('Only these of its tools are registered').optional(),
  excludeTools: stringList('a list of tool names').optional(),
  timeoutMs: positiveInt().optional(),
  connectTimeoutMs: positiveInt().optional(),
  enabled: z.boolean().optional(),
  minEffect: effectSchema
    .describe('The least effect of every tool of this server; its annotations may raise it, never lower it')
    .optional(),
  trust: z
    .enum(['read'], { error: 'use "read" (believe this server\'s readOnlyHint) or leave "trust" out' })
    .describe(
      '"read": its readOnlyHint makes a tool a read (runs in safe mode); without it no hint lowers a tool below execute',
    )
    .optional(),
  limits: resourceLimitsSchema.describe("Over the sandbox's limits for this server").optional(),
  network: z.boolean().describe('The server may use the network from inside the sandbox').optional(),
  oauth: z
    .union([
      z.literal(false),
      z.strictObject({
        clientId: z
          .string()
          .describe('A client registered with the authorization server in advance (default: dynamic registration)')
          .optional(),
        clientSecret: z.string().optional(),
        scope: z.string().describe('Scopes to ask for at login (default: those the server names)').optional(),
      }),
    ])
    .describe('http and sse: OAuth sign-in (toolbelt mcp login NAME); false turns it off')
    .optional(),
  retry: httpRetrySchema
    .describe('http and sse: retries of a request that failed for a passing reason; default 3')
    .optional(),
});

export const mcpConfigShape = {
  mcpServers: z
    .record(z.string(), mcpServerSchema)
    .describe('MCP servers by name; their tools join as <name>__<tool>')
    .optional(),
};

export type McpServerConfig = z.infer<typeof mcpServerSchema>;
export type McpConfig = z.infer<z.ZodObject<typeof mcpConfigShape>>;
