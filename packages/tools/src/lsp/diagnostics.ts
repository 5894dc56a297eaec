import { defineTool, ToolError, type Tool, type ToolOutput } from '@toolbelt/core';
import { CODE } from './group.js';
import { z } from 'zod';
import { formatDiagnostic } from './format.js';
import { pullDiagnostics } from './pull.js';
import { onFile, readsFile, type LspRuntime } from './runtime.js';

const description = `Errors and warnings in one source file as on disk, from its language server (TypeScript/JavaScript built in); at most 100. The first call in a project may take seconds.`;

const input = z.object({
  path: z.string().min(1).describe('Source file.'),
});

const MAX = 100;

export function diagnosticsTool(rt: LspRuntime): Tool {
  return defineTool({
    name: 'diagnostics',
    title: 'Diagnostics',
    description,
    input,
    category: 'lsp',
    group: CODE,
    timeoutMs: 120_000,
    effect: readsFile,
    usualEffect: 'read',
    async execute({ path }, ctx): Promise<ToolOutput> {
      return onFile(
        rt,
        ctx,
        path,
        async ({ client, doc, file }) => {
          // Asked for where the server can answer (no publish delay to wait out), else waited for.
          const asked = await pullDiagnostics(
            client.capabilities,
            (m, p, s) => client.request(m, p, s),
            doc,
            ctx.signal,
          ).catch(() => undefined);
          const found =
            asked ??
            (await client.documents.diagnostics(doc, {
              timeoutMs: rt.diagnosticsTimeoutMs,
              settleMs: rt.settleMs,
              signal: ctx.signal,
            }));
          const shown = file.workspace.display(file.abs);
          if (!found) {
            throw new ToolError(
              'TIMEOUT',
              `${client.spec.name} published no diagnostics for ${shown} within ${+(rt.diagnosticsTimeoutMs / 1000).toFixed(1)} s; it may still be loading the project. Call diagnostics again.`,
              { recoverable: true },
            );
          }
          const problems = found
            .filter((d) => (d.severity ?? 1) <= 3)
            .sort(
              (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
            );
          const count = (s: number) => problems.filter((d) => (d.severity ?? 1) === s).length;
          const errors = count(1);
          const warnings = count(2);
          const metadata = { errors, warnings, info: count(3), server: client.spec.name };
          if (!problems.length) return { content: `${shown}: no problems found.`, metadata };
          const lines = problems.slice(0, MAX).map((d) => formatDiagnostic(shown, d));
          if (problems.length > MAX) lines.push(`... and ${problems.length - MAX} more`);
          const head = `${shown}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
          return { content: [head, ...lines].join('\n'), metadata };
        },
        { fresh: true },
      );
    },
  });
}
