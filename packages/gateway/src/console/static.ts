// The console (packages/console, built into this package's dist/console-assets) served from disk at `/`.
// The page and its assets are public like /healthz; every API call it makes carries the token.
import { routePath } from '@toolbelt/protocol/routes';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { AuthEnv } from '../http/auth.js';

/** Where the built console sits: dist/console-assets next to this package's entry point, if it was built. */
export function defaultConsoleDir(): string | undefined {
  try {
    const dir = join(dirname(createRequire(import.meta.url).resolve('@toolbelt/gateway')), 'console-assets');
    return existsSync(join(dir, 'index.html')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

const OPENAPI_PATH = routePath('openapi');
const NOT_BUILT = `<!doctype html><title>toolbelt</title><p>The toolbelt console is not built in this installation. Run <code>npm run build</code> in the toolbelt repository, then restart <code>toolbelt serve</code>. The HTTP API is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</p>`;

export function consoleRoutes(app: Hono<AuthEnv>, dir: string | undefined): void {
  if (!dir) {
    app.get('/', (c) => c.html(NOT_BUILT, 404));
    return;
  }
  const headers = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  app.use('/assets/:file', async (c, next) => {
    await next();
    // Asset names carry their content hash.
    if (c.res.status === 200) c.header('cache-control', 'public, max-age=31536000, immutable');
  });
  app.get('/assets/:file', serveStatic({ root: dir }));
  app.get('/', async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
    c.header('cache-control', 'no-cache');
    // No script, style or connection from anywhere but here: nothing is fetched from a CDN.
    c.header(
      'content-security-policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    );
  });
  app.get('/', serveStatic({ root: dir, path: 'index.html' }));
}
