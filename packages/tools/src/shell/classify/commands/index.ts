// Command name -> handler: how much worse than a read a command is. Reads themselves are decided
// by the allow-list (../allow); a name in neither runs unknown code: execute.
import { read, type Handler } from '../types.js';
import { literalWord } from '../words.js';
import * as f from './files.js';
import { git } from './git.js';
import * as r from './readers.js';
import { awk, sed } from './sed-awk.js';
import * as s from './system.js';
import * as w from './wrappers.js';

/** cd moves the cwd that later relative paths start from; `cd -` and popd make it unknown. */
const cd: Handler = (cmd, scope) => {
  const target = cmd.args.find((a) => !/^-[PLe@]$|^--$/.test(a.value));
  if (cmd.name === 'popd' || target?.value === '-') scope.chdir(undefined);
  else scope.chdir(target ?? literalWord(scope.home));
  return read(cmd);
};

const table: Record<string, Handler> = {
  rm: f.rm, unlink: f.unlink, rmdir: f.rmdir, shred: f.shred, truncate: f.truncate, dd: f.dd,
  mv: f.mv, cp: f.cp, ln: f.ln, chmod: f.chmod, chown: f.chmod, chgrp: f.chmod, touch: f.touch, mkdir: f.mkdir, tee: f.tee,
  mkfs: f.mkfs, mke2fs: f.mkfs, wipefs: f.mkfs, mkdosfs: f.mkfs, mkntfs: f.mkfs, mkswap: f.shred,
  fdisk: f.partition, sfdisk: f.partition, gdisk: f.partition, sgdisk: f.partition, parted: f.partition, cfdisk: f.partition,
  sort: r.sort, uniq: r.uniq, xxd: r.xxd, tree: r.tree, less: r.less, more: r.less, man: r.man, date: r.date, hostname: r.hostname,
  rg: r.rg, ag: r.ag, file: r.file,
  sed, gsed: sed, awk, gawk: awk, mawk: awk, nawk: awk,
  git,
  sudo: w.sudo, doas: w.sudo, pkexec: w.sudo, su: w.sudo, run0: w.sudo,
  env: w.env, timeout: w.timeout, nohup: w.nohup, time: w.time, stdbuf: w.stdbuf, nice: w.nice, ionice: w.nice,
  command: w.command, builtin: w.builtin, exec: w.exec, xargs: w.xargs, watch: w.watch,
  bash: w.shell, sh: w.shell, zsh: w.shell, dash: w.shell, ksh: w.shell, fish: w.shell,
  eval: w.evalCmd, trap: w.trap, source: w.source, '.': w.source,
  find: w.find, fd: w.fd, fdfind: w.fd,
  cd, pushd: cd, popd: cd,
  kill: s.kill, pkill: s.killByName, killall: s.killByName, killall5: s.killByName,
  shutdown: s.power, reboot: s.power, halt: s.power, poweroff: s.power, init: s.power, telinit: s.power,
  systemctl: s.systemctl, crontab: s.crontab,
  docker: s.docker, podman: s.docker, kubectl: s.kubectl,
  npm: s.nodePackageManager, pnpm: s.nodePackageManager, yarn: s.nodePackageManager, bun: s.nodePackageManager,
  pip: s.pip, pip3: s.pip,
  node: s.toolchain, python: s.toolchain, python3: s.toolchain, ruby: s.toolchain, perl: s.toolchain, php: s.toolchain,
  deno: s.toolchain, go: s.toolchain, cargo: s.toolchain, rustc: s.toolchain, java: s.toolchain, javac: s.toolchain,
  gcc: s.toolchain, 'g++': s.toolchain, clang: s.toolchain, make: s.toolchain, cmake: s.toolchain, tsc: s.toolchain, npx: s.toolchain,
  curl: s.network, wget: s.network, ssh: s.network, scp: s.network, sftp: s.network, nc: s.network, ncat: s.network, telnet: s.network, ftp: s.network,
  rsync: s.rsync, tar: s.tar, unzip: s.unzip,
  gzip: s.compressor, gunzip: s.compressor, bzip2: s.compressor, bunzip2: s.compressor, xz: s.compressor, unxz: s.compressor, zstd: s.compressor,
  patch: s.patch, let: s.let_, alias: s.alias,
};

const MKFS = /^mkfs\.[a-z0-9]+$/;

/** The handler for a command name (already stripped of a system bin directory). */
export function handlerFor(name: string): Handler | undefined {
  if (Object.hasOwn(table, name)) return table[name];
  if (MKFS.test(name)) return f.mkfs;
  return undefined;
}
