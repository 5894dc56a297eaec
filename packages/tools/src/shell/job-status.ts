// One line about a background job: running for how long, or how it ended.
import type { Job } from './manager.js';

function elapsed(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function jobStatus(job: Job, now = Date.now()): string {
  if (!job.exit) return `running for ${elapsed(now - job.startedAt)}`;
  const took = elapsed((job.endedAt ?? now) - job.startedAt);
  if (job.exit.error) return `failed to start: ${job.exit.error.message}`;
  const how = job.exit.signal ? `killed by ${job.exit.signal}` : `exited with code ${job.exit.code}`;
  return `${how} after ${took}${job.stoppedBy ? ` (stopped by ${job.stoppedBy})` : ''}`;
}
