// Results of read calls, kept for a TTL and dropped when a write touches one of their paths.
import { pathUnder } from '../policy/match.js';
import type { ToolResult } from '../result.js';

interface Entry {
  result: ToolResult;
  expires: number;
  paths: readonly string[];
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 500) {}

  static key(tool: string, input: unknown): string {
    return `${tool}\u0000${stableJson(input)}`;
  }

  get(key: string, now = Date.now()): ToolResult | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.result;
  }

  set(key: string, result: ToolResult, ttlMs: number, paths: readonly string[] = []): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { result, expires: Date.now() + ttlMs, paths });
  }

  /** Drops every entry that read this path, a path inside it, or a directory that holds it. */
  invalidatePath(path: string): void {
    for (const [key, e] of this.entries) {
      if (e.paths.some((p) => pathUnder(p, path) || pathUnder(path, p))) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const keys = Object.keys(value as object).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
