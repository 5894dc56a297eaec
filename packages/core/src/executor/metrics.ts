// Per-tool counters and latency percentiles over a window of recent calls.
import type { ToolStatus } from '../result.js';

const WINDOW = 1024;

class ToolStats {
  calls = 0;
  success = 0;
  errors = 0;
  rejected = 0;
  pending = 0;
  totalMs = 0;
  private readonly window = new Float64Array(WINDOW);
  private filled = 0;
  private next = 0;

  record(status: ToolStatus, ms: number): void {
    this.calls++;
    if (status === 'success') this.success++;
    else if (status === 'error') this.errors++;
    else if (status === 'rejected') this.rejected++;
    else this.pending++;
    this.totalMs += ms;
    this.window[this.next] = ms;
    this.next = (this.next + 1) % WINDOW;
    if (this.filled < WINDOW) this.filled++;
  }

  percentiles(): { p50: number; p90: number; p99: number } {
    if (this.filled === 0) return { p50: 0, p90: 0, p99: 0 };
    const sorted = Array.from(this.window.subarray(0, this.filled)).sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return { p50: at(0.5), p90: at(0.9), p99: at(0.99) };
  }
}

export interface ToolMetricsSnapshot {
  tool: string;
  calls: number;
  success: number;
  errors: number;
  rejected: number;
  pending: number;
  avgMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
}

export class Metrics {
  private readonly byTool = new Map<string, ToolStats>();

  record(tool: string, status: ToolStatus, ms: number): void {
    let s = this.byTool.get(tool);
    if (!s) {
      s = new ToolStats();
      this.byTool.set(tool, s);
    }
    s.record(status, ms);
  }

  snapshot(): ToolMetricsSnapshot[] {
    return [...this.byTool].map(([tool, s]) => {
      const p = s.percentiles();
      return {
        tool,
        calls: s.calls,
        success: s.success,
        errors: s.errors,
        rejected: s.rejected,
        pending: s.pending,
        avgMs: s.calls ? s.totalMs / s.calls : 0,
        p50Ms: p.p50,
        p90Ms: p.p90,
        p99Ms: p.p99,
      };
    });
  }
}
