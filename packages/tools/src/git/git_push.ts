import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineTool, ToolError, type Classification, type ToolContext } from '@toolbelt/core';
import { GIT } from './group.js';
import { z } from 'zod';
import { plainName, remotes } from './names.js';
import { currentBranch, openRepo, type Repo } from './repo.js';
import type { GitRunner } from './run.js';

const description = `Push a branch to a configured remote. force uses --force-with-lease: set it only when the user asked to rewrite remote history. Needs approval.`;

const input = z.object({
  remote: z.string().default('origin').describe('Configured remote.'),
  branch: z.string().optional().describe('Default: the current one.'),
  force: z.boolean().default(false).describe('Overwrite the remote branch.'),
  setUpstream: z.boolean().default(false).describe('--set-upstream.'),
});

type Input = z.output<typeof input>;

interface Plan {
  repo: Repo;
  remote: string;
  branch: string;
  args: string[];
  command: string;
  url: string;
}

async function plan(git: GitRunner, { remote, branch, force, setUpstream }: Input, ctx: ToolContext): Promise<Plan> {
  const repo = await openRepo(git, ctx);
  const known = await remotes(repo);
  if (!known.includes(remote)) {
    throw new ToolError(
      'NOT_FOUND',
      `no remote named "${remote}"; ${known.length ? `configured remotes: ${known.join(', ')}` : 'this repository has no remotes'}. Pushing to a URL directly is not supported.`,
    );
  }
  const name = branch ?? (await currentBranch(repo));
  if (!name)
    throw new ToolError('INVALID_PARAMS', 'HEAD is detached, so there is no current branch to push; pass branch');
  const problem = plainName('branch name', name);
  if (problem) throw new ToolError('INVALID_PARAMS', problem);
  const local = await repo.run(['rev-parse', '--verify', '--quiet', `refs/heads/${name}^{commit}`], {
    allowFailure: true,
  });
  if (local.code !== 0)
    throw new ToolError('NOT_FOUND', `no local branch ${name} with commits to push; see git_branch`);
  const flags = [...(force ? ['--force-with-lease'] : []), ...(setUpstream ? ['--set-upstream'] : [])];
  const url = (await repo.run(['remote', 'get-url', '--push', remote])).stdout.trim();
  return {
    repo,
    remote,
    branch: name,
    args: ['push', '--porcelain', ...flags, '--', remote, `refs/heads/${name}:refs/heads/${name}`],
    command: ['git', 'push', ...flags, remote, name].join(' '),
    url,
  };
}

/**
 * The remote's directory when its URL is a local path (or file://) to an existing directory: the
 * approved push writes there, so the sandbox makes it writable for that run.
 */
function localRemote(p: Plan): string | undefined {
  const url = p.url;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith('file://')) return undefined;
  if (!url.startsWith('file://') && /^[^/]+:/.test(url)) return undefined; // scp-like host:path
  let dir: string;
  try {
    dir = realpathSync(url.startsWith('file://') ? fileURLToPath(url) : resolve(p.repo.top, url));
  } catch {
    return undefined;
  }
  return statSync(dir).isDirectory() ? dir : undefined;
}

async function oneline(repo: Repo, range: string[]): Promise<string[]> {
  const r = await repo.run(['log', '--format=%h %s', '--max-count=51', ...range, '--'], { allowFailure: true });
  const lines = r.code === 0 ? r.stdout.split('\n').filter(Boolean) : [];
  return lines.length > 50 ? [...lines.slice(0, 50), '... and more'] : lines;
}

/** Commits that would reach the remote, and (for a force push) those the remote would lose. */
async function commitsToPush(p: Plan): Promise<{ outgoing: string[]; lost: string[]; tracked: boolean }> {
  const tracking = `refs/remotes/${p.remote}/${p.branch}`;
  const local = `refs/heads/${p.branch}`;
  const tracked = (await p.repo.run(['rev-parse', '--verify', '--quiet', tracking], { allowFailure: true })).code === 0;
  if (!tracked)
    return { outgoing: await oneline(p.repo, [local, '--not', `--remotes=${p.remote}`]), lost: [], tracked };
  return {
    outgoing: await oneline(p.repo, [`${tracking}..${local}`]),
    lost: await oneline(p.repo, [`${local}..${tracking}`]),
    tracked,
  };
}

/** Every push is destructive; a force push always asks, and says what it overwrites. */
function classify(p: Plan, force: boolean): Classification {
  const subject = { command: p.command, commands: [p.command], urls: [p.url] };
  if (!force) return { effect: 'destructive', reason: `pushes ${p.branch} to ${p.remote} (${p.url})`, subject };
  return {
    effect: 'destructive',
    reason: `FORCE-pushes ${p.branch} to ${p.remote} (${p.url}): rewrites the remote branch`,
    floor: { level: 'always-ask', reason: `force push to ${p.remote}/${p.branch} rewrites remote history` },
    warnings: [
      `force: true — the remote branch ${p.remote}/${p.branch} will be overwritten with your local ${p.branch}.`,
      'Commits on the remote that are not in your branch will be lost (--force-with-lease refuses if the remote moved since your last fetch).',
    ],
    subject,
  };
}

/** The command, the commits it pushes and, for a force push, the remote's commits it loses. */
async function previewText(p: Plan, force: boolean): Promise<string> {
  const { outgoing, lost, tracked } = await commitsToPush(p);
  const lines = [`${p.command}    (remote ${p.remote}: ${p.url})`, ''];
  if (!tracked) lines.push(`${p.branch} is new on ${p.remote} (as far as the last fetch knows).`);
  lines.push(
    `Commits to push (${outgoing.length}):`,
    ...(outgoing.length ? outgoing.map((c) => `  ${c}`) : ['  (none)']),
  );
  if (force && lost.length)
    lines.push(
      '',
      `Commits on ${p.remote}/${p.branch} that will be LOST (${lost.length}):`,
      ...lost.map((c) => `  ${c}`),
    );
  return lines.join('\n');
}

export const gitPush = (git: GitRunner) =>
  defineTool({
    name: 'git_push',
    title: 'Git push',
    description,
    input,
    category: 'git',
    group: GIT,
    timeoutMs: 120_000,
    validate({ remote, branch }: Input) {
      return plainName('remote', remote) ?? (branch !== undefined ? plainName('branch name', branch) : undefined);
    },
    usualEffect: 'destructive',
    async effect(input: Input, ctx: ToolContext): Promise<Classification> {
      return classify(await plan(git, input, ctx), input.force);
    },
    async preview(input, ctx) {
      return { kind: 'text', text: await previewText(await plan(git, input, ctx), input.force) };
    },
    async execute(input, ctx) {
      const p = await plan(git, input, ctx);
      // Inside the sandbox with the network; a remote that is a directory here is written too.
      const local = localRemote(p);
      const run = await p.repo.run(p.args, {
        access: 'push',
        allowFailure: true,
        ...(local ? { writable: [local] } : {}),
      });
      const status = run.stdout.split('\n').find((l) => l.includes(`\trefs/heads/${p.branch}:`));
      const [flag, , summary = ''] = status?.split('\t') ?? [];
      if (run.code !== 0 || flag === '!' || !status) {
        const detail = (summary || run.stderr.trim().split('\n').slice(-6).join('\n') || `exit ${run.code}`).trim();
        if (/non-fast-forward|fetch first|stale info/.test(detail)) {
          throw new ToolError(
            'CONFLICT',
            `${p.remote} rejected the push of ${p.branch}: ${detail}. The remote has commits your branch does not; fetch and integrate them first${input.force ? '' : ', or ask the user whether to force-push'}.`,
          );
        }
        throw new ToolError('EXECUTION_FAILED', `git push to ${p.remote} failed: ${detail}`);
      }
      if (flag === '=') return `Everything up to date: ${p.remote}/${p.branch} already has your commits.`;
      const how = flag === '*' ? 'new branch' : flag === '+' ? `forced update ${summary}` : summary;
      return {
        content: `Pushed ${p.branch} to ${p.remote} (${how}).`,
        metadata: { remote: p.remote, branch: p.branch, url: p.url, forced: flag === '+' },
      };
    },
  });
