// "Try it": a form from the tool's schema; the call goes through the gateway, so the same policy
// judges it (a call the policy asks about waits under Approvals).
import { useState } from 'preact/hooks';
import type { ToolResult } from '@toolbelt/core';
import type { ToolInfo, WhoAmI } from '@toolbelt/protocol';
import { api } from '../api.js';
import { href } from '../route.js';
import { ms } from '../ui/format.js';
import { Content } from '../ui/content.js';
import { SchemaForm } from '../ui/schema-form.js';

export function TryIt({ tool, me }: { tool: ToolInfo; me: WhoAmI }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ToolResult>();
  const [problem, setProblem] = useState<string>();
  const agentId = me.agents?.[0] ?? 'console';
  const canCall = me.roles.includes('admin') || me.roles.includes('call');
  const run = async (input: Record<string, unknown>) => {
    setBusy(true);
    setResult(undefined);
    setProblem(undefined);
    try {
      setResult(await api('callTool', { params: { runId: 'console' }, body: { agentId, name: tool.name, input } }));
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (!canCall) return <p class="warning">Trying a tool needs a token with the call role.</p>;
  return (
    <div class="try-it">
      <h3>Try it</h3>
      <p class="muted">
        Runs as agent <code>{agentId}</code>, run <code>console</code>, under the same policy as every call. If the
        policy asks, approve it under <a href={href('approvals')}>Approvals</a>.
      </p>
      <SchemaForm
        key={tool.name}
        id={`try-${tool.name}`}
        schema={tool.inputSchema}
        submitLabel={busy ? 'Running…' : `Run ${tool.name}`}
        busy={busy}
        onSubmit={run}
      />
      {problem && <p class="error">{problem}</p>}
      {result && (
        <div class="result" aria-label="Result">
          <p>
            <span class={`badge status-${result.status}`}>{result.status}</span> in {ms(result.durationMs)}
          </p>
          {result.error && <p class="error">{result.error.message}</p>}
          {result.rejection && <p class="error">{result.rejection.userMessage ?? result.rejection.reason}</p>}
          <Content content={result.content} />
        </div>
      )}
    </div>
  );
}
