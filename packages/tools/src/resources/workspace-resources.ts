// The workspace as resources: every file inside the roots as a `file://` URI (the walk's rules:
// gitignored files, links, special files and protected files left out), listed in pages, read
// through the guard (and whatever check the embedder adds: the policy), watched for changes.
// Shapes follow MCP's Resource and contents, without importing MCP.
import { watch, type FSWatcher } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ToolError } from '@toolbelt/core';
import { looksBinary, SNIFF_BYTES } from '../text/binary.js';
import { SearchFilter } from '../walk/filters.js';
import { walk } from '../walk/walk.js';
import type { WorkspaceGuard } from '../workspace/guard.js';
import { openChecked } from '../workspace/special.js';

export interface WorkspaceResource {
  uri: string;
  name: string;
  mimeType?: string;
}

export type ResourceContents =
  { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };

export interface WorkspaceResourcesOptions {
  guard: WorkspaceGuard;
  /** A further check before a read (the policy): a reason to refuse, or undefined. */
  check?: (path: string) => Promise<string | undefined>;
  /** Resources per page; default 200. */
  pageSize?: number;
  /** Largest file read; default 10 MiB. */
  maxBytes?: number;
}

const MIME: Record<string, string> = {
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/typescript',
  '.html': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
};

const filter = new SearchFilter();

export class WorkspaceResources {
  private readonly pageSize: number;
  private readonly maxBytes: number;

  constructor(private readonly opts: WorkspaceResourcesOptions) {
    this.pageSize = opts.pageSize ?? 200;
    this.maxBytes = opts.maxBytes ?? 10 * 1024 * 1024;
  }

  /** One page of files, in path order; the cursor is where the next page starts. */
  async list(cursor?: string): Promise<{ resources: WorkspaceResource[]; nextCursor?: string }> {
    const start = cursor === undefined ? 0 : Number.parseInt(Buffer.from(cursor, 'base64url').toString('utf8'), 10);
    if (!Number.isInteger(start) || start < 0)
      throw new ToolError('INVALID_PARAMS', 'unknown cursor; list again from the start without one');
    const files = await this.files();
    const page = files.slice(start, start + this.pageSize).map((abs) => this.describe(abs));
    const next = start + this.pageSize;
    return {
      resources: page,
      ...(next < files.length ? { nextCursor: Buffer.from(String(next)).toString('base64url') } : {}),
    };
  }

  /** Whether a URI names a place inside the roots (read may still refuse it). */
  owns(uri: string): boolean {
    const path = this.pathOf(uri);
    return (
      path !== undefined &&
      this.opts.guard.roots.some((r) => path === r || path.startsWith(r.endsWith('/') ? r : `${r}/`))
    );
  }

  async read(uri: string): Promise<ResourceContents> {
    const path = this.pathOf(uri);
    if (path === undefined)
      throw new ToolError(
        'INVALID_PARAMS',
        `${uri} is not a file:// URI of the workspace; list the resources to see them`,
      );
    const real = await this.opts.guard.resolve(path, 'read');
    const refused = await this.opts.check?.(real);
    if (refused) throw new ToolError('PERMISSION_DENIED', refused);
    // A read: a hard-linked file proven safe (workspace/links.ts) is served, as read_file serves it.
    const { fh, stat } = await openChecked(real, path, this.opts.guard.roots);
    try {
      if (stat.isDirectory()) throw new ToolError('INVALID_PARAMS', `${uri} is a directory; read the files in it`);
      if (stat.size > this.maxBytes)
        throw new ToolError(
          'INVALID_PARAMS',
          `${uri} is ${stat.size} bytes, over the ${this.maxBytes}-byte limit for a resource; use read_file with offset and limit`,
        );
      const data = await fh.readFile();
      const mimeType = MIME[extname(real).toLowerCase()];
      if (looksBinary(data.subarray(0, SNIFF_BYTES)))
        return { uri, mimeType: mimeType ?? 'application/octet-stream', blob: data.toString('base64') };
      return { uri, mimeType: mimeType ?? 'text/plain', text: data.toString('utf8') };
    } finally {
      await fh.close();
    }
  }

  /** Calls `onChange` when the file changes, until the returned function is called. */
  async watch(uri: string, onChange: () => void): Promise<() => void> {
    const path = this.pathOf(uri);
    if (path === undefined) throw new ToolError('INVALID_PARAMS', `${uri} is not a file:// URI of the workspace`);
    const real = await this.opts.guard.resolve(path, 'read');
    let timer: NodeJS.Timeout | undefined;
    // An editor's save is several events; one update per burst.
    const watcher: FSWatcher = watch(real, { persistent: false }, () => {
      clearTimeout(timer);
      timer = setTimeout(onChange, 50);
    });
    watcher.on('error', () => watcher.close());
    return () => {
      clearTimeout(timer);
      watcher.close();
    };
  }

  private pathOf(uri: string): string | undefined {
    try {
      return uri.startsWith('file://') ? fileURLToPath(uri) : undefined;
    } catch {
      return undefined;
    }
  }

  private describe(abs: string): WorkspaceResource {
    const root = this.opts.guard.roots.find((r) => abs.startsWith(`${r}/`));
    const mimeType = MIME[extname(abs).toLowerCase()];
    return {
      uri: pathToFileURL(abs).href,
      name: root ? abs.slice(root.length + 1) : abs,
      ...(mimeType ? { mimeType } : {}),
    };
  }

  private async files(): Promise<string[]> {
    const found: string[] = [];
    for (const root of this.opts.guard.roots) {
      await walk({
        root,
        filter,
        onFile: (abs) => {
          if (!this.opts.guard.isProtected(abs, 'read')) found.push(abs);
        },
      });
    }
    return found.sort();
  }
}
