// Diagnostics asked for rather than waited for. A server that publishes them does so after a delay
// of its own (typescript-language-server waits 300–800 ms after an open, then the caller waits for
// quiet), so when the server can answer a request, it is asked:
// - LSP 3.17 pull diagnostics (`textDocument/diagnostic`) where the server offers them;
// - typescript-language-server offers no pull, but forwards tsserver requests
//   (`typescript.tsserverRequest`): tsserver's syntactic and semantic diagnostics, synchronously.
// Undefined when the server can do neither: the caller waits for published diagnostics.
import type { Diagnostic, DocumentDiagnosticReport, ServerCapabilities } from 'vscode-languageserver-protocol';
import type { OpenDoc } from './documents.js';

const TSSERVER_REQUEST = 'typescript.tsserverRequest';

/** What answers a request: the client's `request`, with its deadline, cancellation and crash handling. */
export type Requester = <R>(method: string, params: unknown, signal?: AbortSignal) => Promise<R>;

/** How this server's diagnostics can be asked for, if they can. */
export function pullKind(capabilities: ServerCapabilities): 'lsp' | 'tsserver' | undefined {
  if (capabilities.diagnosticProvider) return 'lsp';
  if (capabilities.executeCommandProvider?.commands?.includes(TSSERVER_REQUEST)) return 'tsserver';
  return undefined;
}

export async function pullDiagnostics(
  capabilities: ServerCapabilities,
  request: Requester,
  doc: OpenDoc,
  signal?: AbortSignal,
): Promise<Diagnostic[] | undefined> {
  const kind = pullKind(capabilities);
  if (kind === 'lsp') {
    const report = await request<DocumentDiagnosticReport>(
      'textDocument/diagnostic',
      { textDocument: { uri: doc.uri } },
      signal,
    );
    return report.kind === 'full' ? report.items : undefined;
  }
  if (kind === 'tsserver') {
    const ask = (command: string) =>
      request<TsResponse | null>(
        'workspace/executeCommand',
        { command: TSSERVER_REQUEST, arguments: [command, { file: doc.path }] },
        signal,
      );
    const [syntactic, semantic] = await Promise.all([ask('syntacticDiagnosticsSync'), ask('semanticDiagnosticsSync')]);
    if (!syntactic?.success || !semantic?.success) return undefined;
    return [...(syntactic.body ?? []), ...(semantic.body ?? [])].map(fromTsserver);
  }
  return undefined;
}

/** tsserver's answer to a forwarded request. */
interface TsResponse {
  success: boolean;
  body?: TsDiagnostic[];
}

/** tsserver's diagnostic: 1-based lines and offsets, a category for the severity. */
interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category: string;
  source?: string;
}

const SEVERITY: Record<string, Diagnostic['severity']> = { error: 1, warning: 2, message: 3, suggestion: 4 };

/** As typescript-language-server publishes it (its own conversion of the same tsserver diagnostic). */
function fromTsserver(d: TsDiagnostic): Diagnostic {
  return {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    message: d.text,
    severity: SEVERITY[d.category] ?? 1,
    ...(d.code !== undefined ? { code: d.code } : {}),
    source: d.source ?? 'typescript',
  };
}
