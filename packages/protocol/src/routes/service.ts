// The gateway's own routes: liveness, this API's description, metrics, the tool list, the event
// stream and the execution log.
import type { ProviderFormat } from '@toolbelt/core';
import type { ExecutionList, HealthAnswer, ProviderToolList, ToolList } from '../wire/index.js';
import { io, type RouteSpec } from './spec.js';

/** Core's PROVIDER_FORMATS, here as data so the table pulls in nothing of core at run time (a test compares them). */
export const FORMATS = [
  'json-schema',
  'openai',
  'openai-responses',
  'anthropic',
  'gemini',
  'mcp',
  'vercel-ai',
] as const satisfies readonly ProviderFormat[];

export const SERVICE_ROUTES = {
  health: {
    method: 'GET',
    path: '/healthz',
    role: 'public',
    summary: 'Liveness',
    errors: { '503': 'the gateway cannot reach its database; it retries by itself' },
    io: io<never, HealthAnswer>(),
  },
  openapi: {
    method: 'GET',
    path: '/api/openapi.json',
    role: 'public',
    summary: 'This document (OpenAPI 3.1), generated from the route table of @toolbelt/protocol',
    io: io<never, { openapi: '3.1.0'; [field: string]: unknown }>(),
  },
  prometheus: {
    method: 'GET',
    path: '/metrics',
    role: 'admin',
    summary: 'Prometheus metrics (text exposition format)',
    answer: 'text',
    io: io<never, string>(),
  },
  listTools: {
    method: 'GET',
    path: '/api/tools',
    role: 'token',
    summary: 'List the tools',
    query: { format: { type: 'string', description: 'a provider format instead of ours', enum: FORMATS } },
    errors: { '400': 'unknown format' },
    io: io<never, ToolList | ProviderToolList>(),
  },
  events: {
    method: 'GET',
    path: '/api/events',
    role: 'events',
    summary: 'Server-Sent Events',
    description:
      'Every event of the core vocabulary plus pending.created, pending.resolved, pending.expired and inbox.added. Each has an id; reconnect with Last-Event-ID (or ?lastEventId=) to get what was missed, from the store. Without it, live events only.',
    query: {
      runId: { type: 'string', description: 'only this run' },
      agentId: { type: 'list', description: 'only these agents (comma-separated)' },
      types: { type: 'list', description: 'only these event types (comma-separated)' },
      lastEventId: { type: 'string', description: 'replay after this id' },
      access_token: { type: 'string', description: 'the token, for clients that cannot send headers' },
    },
    headers: { 'Last-Event-ID': 'replay after this id' },
    answer: 'event-stream',
    errors: { '400': 'bad filter or Last-Event-ID' },
    io: io<never, string>(),
  },
  executions: {
    method: 'GET',
    path: '/api/executions',
    role: 'admin',
    summary: 'The execution log, newest first; nextBefore is absent on the last page',
    query: {
      tool: { type: 'string', description: 'only this tool' },
      status: { type: 'string', description: 'only this status' },
      agentId: { type: 'string', description: 'only this agent' },
      runId: { type: 'string', description: 'only this run' },
      since: { type: 'string', description: 'ISO time' },
      limit: { type: 'integer', description: '1-1000, default 100' },
      before: { type: 'integer', description: "the next page: the last answer's nextBefore" },
    },
    io: io<never, ExecutionList>(),
  },
} as const satisfies Record<string, RouteSpec>;
