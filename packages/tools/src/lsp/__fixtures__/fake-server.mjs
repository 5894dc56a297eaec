// A tiny language server for the pool tests, speaking real JSON-RPC over stdio.
// hover answers with its pid; a document containing "crash-always" makes hover exit the process,
// one containing "crash-once" does so only until the marker file (argv[2]) exists; for one
// containing "silent" no diagnostics are ever published.
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const P = require('vscode-languageserver-protocol/node');
const conn = P.createProtocolConnection(
  new P.StreamMessageReader(process.stdin),
  new P.StreamMessageWriter(process.stdout),
);
const docs = new Map();
const marker = process.argv[2];

const crash = () => {
  process.stderr.write('fake server: crashing on purpose\n');
  process.exit(3);
};

conn.onRequest('initialize', () => ({ capabilities: { hoverProvider: true, textDocumentSync: 1 } }));
conn.onNotification('initialized', () => {});
conn.onNotification('textDocument/didOpen', ({ textDocument: { uri, text } }) => {
  docs.set(uri, text);
  if (text.includes('silent')) return;
  const diagnostics = text.includes('bad')
    ? [
        {
          range: {
            start: { line: 0, character: text.indexOf('bad') },
            end: { line: 0, character: text.indexOf('bad') + 3 },
          },
          message: 'bad word',
          severity: 1,
          source: 'fake',
          code: 'F1',
        },
      ]
    : [];
  conn.sendNotification('textDocument/publishDiagnostics', { uri, diagnostics });
});
conn.onNotification('textDocument/didChange', ({ textDocument: { uri }, contentChanges }) =>
  docs.set(uri, contentChanges[0].text),
);
conn.onNotification('textDocument/didClose', ({ textDocument: { uri } }) => docs.delete(uri));
conn.onRequest('textDocument/hover', ({ textDocument: { uri } }) => {
  const text = docs.get(uri) ?? '';
  if (text.includes('crash-always')) crash();
  if (text.includes('crash-once') && !existsSync(marker)) {
    writeFileSync(marker, '');
    crash();
  }
  return { contents: { kind: 'plaintext', value: `pid ${process.pid}` } };
});
conn.onRequest('shutdown', () => null);
conn.onNotification('exit', () => process.exit(0));
conn.listen();
