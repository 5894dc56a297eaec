// Any registry over MCP, through an Executor: every tools/call passes validation, policy, approval
// (by elicitation), timeouts, logging and metrics like any other call. One SDK Server per client
// connection; all share the executor, where this server is the approver for calls from `mcp`.
import { randomUUID } from 'node:crypto';
import {
  errorResult,
  GroupedView,
  toProviderFormat,
  VERSION,
  type Executor,
  type Tool,
  type ToolEvent,
  type ToolSource,
} from '@toolbelt/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type LoggingLevel,
  type Notification,
  type Request,
  type ServerNotification,
  type ServerRequest,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { approvalRequiredMessage, elicitationApprover, type McpCaller } from './elicitation-approver.js';
import { ClientLogs } from './client-logs.js';
import { servePrompts, serveResources, type PromptSource, type ResourceSource } from './resources.js';
import { elicitationForwarder } from './elicitation-forwarder.js';
import { LOAD_TOOLS, loadTools, loadToolsDefinition, notLoaded } from './load-tools.js';
import { toCallToolResult } from './result.js';
import { samplingModel } from './sampling.js';

export interface ToolServerOptions {
  executor: Executor;
  name?: string;
  version?: string;
  instructions?: string;
  /**
   * Hierarchical loading: each client starts with only these tool groups plus `load_tools`, which
   * loads more for that client alone. Unset: every tool, no `load_tools`.
   */
  groups?: readonly string[];
  /** Served as resources/* (the workspace's files, proxied servers' resources), in this order. */
  resources?: readonly ResourceSource[];
  /** Served as prompts/* (proxied servers' prompts). */
  prompts?: PromptSource;
}

/** One client's SDK Server, its session, and its view of the tools when groups are on. */
interface ClientServer {
  server: Server;
  sessionId: string;
  view: GroupedView | undefined;
}

type CallExtra = RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>;

interface LiveCall extends McpCaller {
  progressToken?: string | number;
  send?: (n: ServerNotification) => Promise<void>;
  /** Last progress value sent: MCP requires it to grow. */
  last: number;
  /** The tool reported a total, so output chunks do not advance the count. */
  counted: boolean;
}

/** Said once here instead of in every tool's parameters: what holds for all of them. */
const INSTRUCTIONS =
  'Tools served by toolbelt behind a permission policy. A call that needs approval is asked through ' +
  'elicitation when this client supports it; otherwise it returns an error saying how the user can allow it. ' +
  'Paths are absolute or relative to the workspace root. An omitted boolean parameter is false. Lines and columns are 1-based.';
const MAX_PROGRESS_MESSAGE = 1000;

export class ToolServer {
  readonly executor: Executor;
  private readonly opts: ToolServerOptions;
  private readonly calls = new Map<string, LiveCall>();
  private readonly servers = new Set<Server>();
  private readonly initialized = new WeakSet<Server>();
  private definitions = new Map<string, McpTool>();
  private readonly stopWatchingRegistry: () => void;
  private stopWatchingProgress: (() => void) | undefined;
  private progressCalls = 0;
  private readonly leaveApprovals: () => void;
  private readonly leaveElicitations: () => void;
  private readonly logs: ClientLogs;

  constructor(opts: ToolServerOptions) {
    this.opts = opts;
    this.executor = opts.executor;
    // An unknown group fails here, at start, rather than on the first client.
    if (opts.groups) new GroupedView(opts.executor.registry).load(opts.groups);
    // Calls from MCP clients are asked through elicitation; calls from elsewhere never reach it.
    this.leaveApprovals = this.executor.approvals.register(
      'mcp',
      elicitationApprover((id) => this.calls.get(id)),
    );
    // Questions a tool asks during a call from an MCP client (an upstream server's elicitation) go to that client.
    this.leaveElicitations = this.executor.elicitations.register(
      'mcp',
      elicitationForwarder((id) => this.calls.get(id)),
    );
    this.logs = new ClientLogs(this.executor, (id) => this.calls.get(id)?.server);
    this.stopWatchingRegistry = this.executor.registry.onChange(() => {
      this.definitions.clear();
      for (const server of this.servers) {
        if (this.initialized.has(server)) server.sendToolListChanged().catch(() => {});
      }
    });
  }

  /** A new SDK Server for one client, not yet connected. */
  createServer(): Server {
    const server = new Server(
      { name: this.opts.name ?? 'toolbelt', version: this.opts.version ?? VERSION },
      {
        capabilities: {
          tools: { listChanged: true },
          logging: {},
          ...(this.opts.resources?.length ? { resources: { subscribe: true } } : {}),
          ...(this.opts.prompts ? { prompts: {} } : {}),
        },
        instructions: this.opts.instructions ?? INSTRUCTIONS,
        // Registering a server's twenty tools is one change for the client, not twenty.
        debouncedNotificationMethods: ['notifications/tools/list_changed'],
      },
    );
    const sessionId = `mcp_${randomUUID().slice(0, 8)}`;
    server.oninitialized = () => this.initialized.add(server);
    const unsubscribe = this.opts.resources?.length ? serveResources(server, this.opts.resources) : undefined;
    if (this.opts.prompts) servePrompts(server, this.opts.prompts);
    server.onclose = () => {
      this.servers.delete(server);
      unsubscribe?.();
    };
    const view = this.opts.groups ? new GroupedView(this.executor.registry, this.opts.groups) : undefined;
    this.logs.install(server);
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.listTools(view) }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.callTool({ server, sessionId, view }, request, extra),
    );
    this.servers.add(server);
    return server;
  }

  /** tools/call from one client: through the executor, with progress while it runs if the client asked. */
  private async callTool(client: ClientServer, request: CallToolRequest, extra: CallExtra): Promise<CallToolResult> {
    const { server, sessionId, view } = client;
    const callId = `tc_${randomUUID()}`;
    const progressToken = request.params._meta?.progressToken;
    const live: LiveCall = { server, requestId: extra.requestId, last: 0, counted: false };
    if (progressToken !== undefined) {
      live.progressToken = progressToken;
      live.send = extra.sendNotification;
      this.watchProgress(1);
    }
    const early = view && this.groupCall(view, server, request.params.name, request.params.arguments ?? {}, callId);
    if (early) return toCallToolResult(early);
    this.calls.set(callId, live);
    try {
      const result = await this.executor.call({
        llm: samplingModel(server, extra.requestId),
        tool: request.params.name,
        input: request.params.arguments ?? {},
        callId,
        sessionId,
        signal: extra.signal,
        origin: 'mcp',
      });
      if (live.unasked && result.status === 'rejected') {
        const message = approvalRequiredMessage(live.unasked);
        return toCallToolResult({
          ...errorResult(callId, result.tool, 'APPROVAL_REQUIRED', message),
          durationMs: result.durationMs,
        });
      }
      return toCallToolResult(
        result,
        this.executor.registry.get(result.tool)?.outputJsonSchema !== undefined,
        this.executor.structuredText,
      );
    } finally {
      this.calls.delete(callId);
      if (progressToken !== undefined) this.watchProgress(-1);
    }
  }

  /** Serves one client on a transport (stdio, or one Streamable HTTP session). */
  async connect(transport: Transport): Promise<Server> {
    const server = this.createServer();
    await server.connect(transport);
    return server;
  }

  /** A server-side message (a warning, an upstream server's log line) to every client whose level lets it through. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    for (const server of this.servers) if (this.initialized.has(server)) this.logs.send(server, level, data, logger);
  }

  async close(): Promise<void> {
    this.logs.close();
    this.stopWatchingRegistry();
    this.stopWatchingProgress?.();
    this.leaveApprovals();
    this.leaveElicitations();
    await Promise.allSettled([...this.servers].map((s) => s.close()));
  }

  private listTools(view: GroupedView | undefined): McpTool[] {
    const source: ToolSource = view ?? this.executor.registry;
    const tools = source.list().map((tool) => this.definitionOf(tool));
    return view ? [...tools, loadToolsDefinition(view)] : tools;
  }

  private definitionOf(tool: Tool): McpTool {
    let def = this.definitions.get(tool.name);
    if (!def) {
      def = toProviderFormat(tool, 'mcp') as McpTool;
      // MCP requires an object schema at the top, even for a tool that takes nothing.
      if (def.inputSchema.type !== 'object') def.inputSchema = { ...def.inputSchema, type: 'object' };
      this.definitions.set(tool.name, def);
    }
    return def;
  }

  /** With groups: answers load_tools, and refuses a tool whose group this client has not loaded. */
  private groupCall(view: GroupedView, server: Server, name: string, input: Record<string, unknown>, callId: string) {
    // An alias (`bash`) answers for its tool's group as the tool's own name does.
    if (name !== LOAD_TOOLS)
      return notLoaded(this.executor.registry, view, this.executor.toolFor(name, input)?.name ?? name, callId);
    const result = loadTools(view, input, callId);
    if (result.status === 'success') server.sendToolListChanged().catch(() => {});
    return result;
  }

  /** Listens to executor events only while some call wants progress: the hot path stays quiet. */
  private watchProgress(delta: number): void {
    this.progressCalls += delta;
    if (this.progressCalls > 0 && !this.stopWatchingProgress) {
      this.stopWatchingProgress = this.executor.events.on((e) => this.forwardProgress(e));
    } else if (this.progressCalls === 0 && this.stopWatchingProgress) {
      this.stopWatchingProgress();
      this.stopWatchingProgress = undefined;
    }
  }

  private forwardProgress(e: ToolEvent): void {
    if (e.type !== 'tool.progress' && e.type !== 'tool.output') return;
    const live = this.calls.get(e.callId);
    if (!live?.send || live.progressToken === undefined) return;
    let progress: number;
    let total: number | undefined;
    let message: string | undefined;
    if (e.type === 'tool.progress' && e.progress !== undefined && e.progress > live.last) {
      progress = e.progress;
      total = e.total;
      message = e.message;
      if (total !== undefined) live.counted = true;
    } else if (!live.counted) {
      // No numbers from the tool (or output chunks): count events, so progress still grows.
      progress = live.last + 1;
      message = e.type === 'tool.output' ? e.chunk : e.message;
    } else return;
    live.last = progress;
    const params = {
      progressToken: live.progressToken,
      progress,
      ...(total !== undefined ? { total } : {}),
      ...(message
        ? { message: message.length > MAX_PROGRESS_MESSAGE ? `${message.slice(0, MAX_PROGRESS_MESSAGE)}...` : message }
        : {}),
    };
    live.send({ method: 'notifications/progress', params }).catch(() => {});
  }
}
