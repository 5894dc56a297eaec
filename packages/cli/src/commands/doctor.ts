// `toolbelt doctor`: what this machine gives toolbelt — Node, bash, git, ripgrep, and above all
// whether the sandbox works here, and if not, why and what would fix it.
import { spawnSync } from 'node:child_process';
import { bwrapVersion, findRg, probeSandbox, programChoice, type SandboxSettings } from '@toolbelt/tools';
import { COMMON_OPTIONS, EXIT, type Command } from '../command.js';
import { inspectConfig, type InspectedConfig } from '../config/open.js';
import { refusal, TRUST_ENV, trustCommand, usable } from '../config/trust.js';
import { sandboxConfig } from '../runtime.js';

type Level = 'ok' | 'warn' | 'FAIL' | 'off';

interface Check {
  name: string;
  level: Level;
  summary: string;
  details?: string[];
}

const NODE_MIN = [20, 19];

function versionOf(file: string, args = ['--version']): string | undefined {
  const r = spawnSync(file, args, { encoding: 'utf8', timeout: 5_000 });
  return r.status === 0 ? r.stdout.split('\n')[0].trim() || undefined : undefined;
}

function nodeCheck(): Check {
  const [major, minor] = process.versions.node.split('.').map(Number);
  const ok = major > NODE_MIN[0] || (major === NODE_MIN[0] && minor >= NODE_MIN[1]);
  return {
    name: 'node',
    level: ok ? 'ok' : 'FAIL',
    summary: `${process.version} (toolbelt needs >= ${NODE_MIN.join('.')})`,
  };
}

/** PATH entries passed over for `name` because the workspace could have filled them. */
function skippedFor(name: string): string[] {
  return programChoice(name).skipped.map(
    (dir) => `skipped ${name} in ${dir}: programs never come from the workspace or node_modules`,
  );
}

function programCheck(name: string, missing: { level: Level; why: string }): Check {
  const path = programChoice(name).path;
  const details = skippedFor(name);
  if (!path)
    return {
      name,
      level: missing.level,
      summary: `not found in a fixed place on PATH: ${missing.why}`,
      ...(details.length ? { details } : {}),
    };
  return {
    name,
    level: 'ok',
    summary: `${versionOf(path) ?? 'version unknown'} (${path})`,
    ...(details.length ? { details } : {}),
  };
}

function rgCheck(configured: string | undefined): Check {
  const path = findRg(configured);
  const details = configured?.startsWith('/') ? [] : skippedFor(configured || 'rg');
  const more = details.length ? { details } : {};
  if (!path)
    return {
      name: 'ripgrep',
      level: 'warn',
      summary: 'not found: grep uses its JavaScript engine (slower on large trees); install ripgrep',
      ...more,
    };
  return {
    name: 'ripgrep',
    level: 'ok',
    summary: `${versionOf(path) ?? 'version unknown'} (${path}): grep uses it`,
    ...more,
  };
}

function home(path: string, h: string): string {
  return h !== '/' && path.startsWith(h + '/') ? `~${path.slice(h.length)}` : path;
}

function confinementDetails(s: SandboxSettings): string[] {
  const l = s.limits;
  const limits = [
    l.cpuSeconds && `CPU ${l.cpuSeconds} s`,
    l.dataMb && `data ${l.dataMb} MB`,
    l.memoryMb && `address space ${l.memoryMb} MB`,
    l.openFiles && `${l.openFiles} open files`,
    l.processes && `${l.processes} processes${process.getuid?.() === 0 ? ' (not enforced for root)' : ''}`,
  ].filter(Boolean);
  const network =
    s.network === true
      ? 'every command and server'
      : s.network === false || s.network.length === 0
        ? 'none (servers: those with "network": true)'
        : `commands starting with ${s.network.join(', ')}`;
  return [
    `writable: the workspace roots${s.writable.length ? `, ${s.writable.map((w) => home(w, s.home)).join(', ')}` : ''} and a /tmp private to each command (a command judged a read: only its /tmp)`,
    `network: ${network} (a command judged a read: none)`,
    `hidden: ${s.hidden.map((h) => home(h, s.home)).join(', ')}; secret files in the roots (.env, keys, credentials); files only root reads (/etc/shadow…); toolbelt's own files; for a read, other users' homes`,
    `local sockets: /run is empty${s.sockets.length ? `, but for ${s.sockets.map((h) => home(h, s.home)).join(', ')} (sandbox.sockets)` : ''}`,
    `limits per process: ${limits.join(', ')}`,
  ];
}

async function sandboxCheck(s: SandboxSettings): Promise<Check> {
  if (s.mode === 'off')
    return {
      name: 'sandbox',
      level: 'off',
      summary: 'off (sandbox.mode "off"): commands and stdio MCP servers run unconfined',
    };
  const status = await probeSandbox(s.bwrap);
  if (!status.ok) {
    const refused = s.mode === 'required';
    return {
      name: 'sandbox',
      level: refused ? 'FAIL' : 'warn',
      summary: `does not work here: ${status.reason}`,
      details: [
        `fix: ${status.hint}`,
        refused
          ? 'sandbox.mode is "required": shell commands and stdio MCP servers are refused until it works'
          : 'sandbox.mode is "auto": commands and stdio MCP servers run unconfined until it works',
      ],
    };
  }
  const version = (await bwrapVersion(status.bwrap)) ?? 'bubblewrap';
  const skipped = s.bwrap.includes('/') ? [] : skippedFor(s.bwrap);
  const hardening = `commands run with ${status.hardening.join(' ') || 'no extra flags'}${process.getuid?.() === 0 ? ' (as nobody inside, without capabilities)' : ''}`;
  return {
    name: 'sandbox',
    level: status.notes.length ? 'warn' : 'ok',
    summary: `works: ${version} (${status.bwrap}), sandbox.mode "${s.mode}"`,
    details: [hardening, ...status.notes, ...skipped, ...confinementDetails(s)],
  };
}

/** Whether the config is used: trusted, changed or untrusted, and the command that fixes it. */
function configCheck(found: InspectedConfig): Check {
  const { path, trust } = found;
  if (!trust) return { name: 'config', level: 'ok', summary: `none (${path} is not there): the defaults apply` };
  const fix = trustCommand(path, found.roots[0]);
  switch (trust.state) {
    case 'outside':
      return { name: 'config', level: 'ok', summary: `${path} (outside the workspace roots: needs no trust)` };
    case 'trusted':
      return {
        name: 'config',
        level: 'ok',
        summary: `trusted: ${path} (sha256 ${trust.sha256.slice(0, 12)}, ${trust.by === 'env' ? `pinned by ${TRUST_ENV}` : `since ${trust.at}`})`,
        details: trust.by === 'store' ? [`after editing it, review and run: ${fix}`] : [],
      };
    default: {
      const state =
        trust.state === 'untrusted' ? 'untrusted' : trust.state === 'changed' ? 'changed since trusted' : 'not usable';
      const why = refusal(path, trust, found.roots[0])!.split('\n');
      return {
        name: 'config',
        level: 'FAIL',
        summary: `${state}: ${path}; every command refuses it`,
        details: [...why, 'the checks below use the defaults, not this file'],
      };
    }
  }
}

export const doctorCommand: Command = {
  name: 'doctor',
  usage:
    'Usage: toolbelt doctor [--json] [--root DIR] [--config FILE]\nChecks Node, whether the config is trusted, bash, git, ripgrep and the sandbox; exits 1 when something toolbelt needs is missing.',
  options: { ...COMMON_OPTIONS, json: { type: 'boolean' } },
  async run(values, _pos, io) {
    const found = inspectConfig(values, process.env);
    // An untrusted config is never acted on: it may name the programs (bwrapPath, rgPath) run below.
    const trusted = !found.trust || usable(found.trust);
    if (trusted && found.error) throw found.error;
    const config = (trusted && found.config) || {};
    const settings = sandboxConfig(config, process.env);
    const checks: Check[] = [
      nodeCheck(),
      configCheck(found),
      programCheck('bash', { level: 'FAIL', why: 'the shell tools run every command with it' }),
      programCheck('git', { level: 'warn', why: 'the git tools need it' }),
      rgCheck(config.search?.rgPath),
      await sandboxCheck(settings),
    ];
    if (values.json) {
      io.stdout.write(JSON.stringify(checks, null, 2) + '\n');
    } else {
      const width = Math.max(...checks.map((c) => c.name.length));
      for (const c of checks) {
        io.stdout.write(`${c.level.padEnd(4)}  ${c.name.padEnd(width)}  ${c.summary}\n`);
        for (const d of c.details ?? []) io.stdout.write(`${' '.repeat(width + 8)}${d}\n`);
      }
    }
    return checks.some((c) => c.level === 'FAIL') ? EXIT.toolError : EXIT.ok;
  },
};
