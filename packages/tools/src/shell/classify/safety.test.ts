// The allow-list rule, case by case: every spelling an outside review found running without asking,
// and many more written from the manuals (GNU coreutils, sed, gawk, tar, sort, git, bash builtins).
//   read  runs without asking in `safe`
//   asks  is not a read: `safe` asks
//   code  is neither a read nor an edit inside the workspace: `auto-edit` asks too
//   edit  an edit of files inside the workspace: `auto-edit` runs it, `safe` asks
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand } from './classify.js';
import { REGRESSIONS } from './__fixtures__/regressions.js';
import { makeSafetyTree, type SafetyTree } from './__fixtures__/tree.js';

type Expect = 'read' | 'asks' | 'code' | 'edit';

let t: SafetyTree;
beforeAll(() => {
  t = makeSafetyTree();
});
afterAll(() => t.remove());

const classify = (script: string) =>
  classifyCommand(script.replaceAll('OUT', t.outside).replaceAll('ROOT', t.root), { cwd: t.root, roots: [t.root], home: t.home, env: { PATH: '/usr/bin:/bin', HOME: t.home } });

/** What the review found: each ran without asking before. */
const FOUND: [string, Expect][] = [
  // 1. Code from "read-only" commands.
  ['hash -p /usr/bin/touch ls; ls x', 'code'],
  ['BASH_CMDS[ls]=/usr/bin/touch; ls x', 'code'],
  ["declare 'a[$(touch pwn)]=1'", 'code'],
  ["typeset 'x[$(touch pwn)]'", 'code'],
  ["test -v 'a[$(touch pwn)]'", 'code'],
  ["[ -v 'a[$(touch pwn)]' ]", 'code'],
  ["[[ -v 'a[$(touch pwn)]' ]]", 'code'],
  ["[[ 1 -eq 'a[$(touch pwn)]' ]]", 'code'],
  ["printf -v 'a[$(touch pwn)]' %s x", 'code'],
  ["read 'a[$(touch pwn)]' <<< x", 'code'],
  ["unset 'a[$(touch pwn)]'", 'code'],
  ["export 'a[$(touch pwn)]=1'", 'code'],
  ['declare -n r=x', 'code'],
  ["x='a[$(touch pwn)]'; echo $((x))", 'code'],
  ["mapfile -C 'touch pwn' -c 1 arr <<< x", 'code'],
  ["readarray -C 'touch pwn' -c 1 arr <<< x", 'code'],
  ["compgen -C 'touch pwn' x", 'code'],
  ['cat <<EOF\n`touch pwn`\nEOF', 'code'],
  ['gawk \'BEGIN { f = "system"; @f("touch pwn") }\'', 'code'],
  ["git ls-remote --upload-pack='touch pwn' .", 'code'],
  // 2. Abbreviated long options.
  ['sed --in-pl s/safe/yolo/ toolbelt.config.json', 'code'],
  ['sed --i s/a/b/ a.txt', 'edit'],
  ['sort --comp=sh a.txt', 'code'],
  ['sort --comp=sh -o sorted.txt a.txt', 'code'],
  ['sort --out=sorted.txt a.txt', 'edit'],
  ['sort --out=OUT/x a.txt', 'code'],
  ['tar --checkpoint-act=exec=id --checkpoint=1 -cf x.tar a.txt', 'code'],
  ['tar --use-comp=sh -cf x.tar a.txt', 'code'],
  ['tar --rsh-command=/bin/sh -cf h:x.tar a.txt', 'code'],
  // 3. Options and config from the environment or the tree.
  ['TAR_OPTIONS=--to-command=id tar -xf x.tar', 'code'],
  ['LESS=+!id less a.txt', 'code'],
  ['MANOPT=-Hid man ls', 'code'],
  ['RIPGREP_CONFIG_PATH=./rc rg foo', 'code'],
  ['GIT_TRACE2=OUT/trace git status', 'code'],
  ['npm_config_registry=http://127.0.0.1:9/ npm view x', 'code'],
  ['HOME=. git status', 'code'],
  ['XDG_CONFIG_HOME=./xdg git status', 'code'],
  ['git -C evil status', 'code'],
  ['git --git-dir=evil status', 'code'],
  ['cd evil && git status', 'code'],
  ['git -C monitored status', 'code'],
  ['cd monitored && git status', 'code'],
  ['cd filtered && git status', 'code'],
  ['cd filtered && git add .', 'code'],
  ['cd textconv && git diff', 'code'],
  ['cd textconv && git log -p', 'code'],
  ['cd hooked && git commit -m x', 'code'],
  // 4. The network.
  ['cat < /dev/tcp/127.0.0.1/9', 'code'],
  ['git ls-remote https://example.com/x.git', 'code'],
  ['cd repo && git remote show origin', 'code'],
  ['npm view x', 'code'],
  ['npm view --registry http://127.0.0.1:9/ x', 'code'],
  // 5. Secrets and paths outside.
  ['env', 'code'],
  ['cat /proc/self/environ', 'code'],
  ['cat .e*', 'code'],
  ['cat .[e]nv', 'code'],
  ['grep -r API_KEY .', 'code'],
  ['cd repo && git show HEAD:.env', 'code'],
  ['git grep KEY', 'code'],
  ['cat /etc/shadow', 'code'],
  ['cd repo && git blame --contents /etc/passwd a.txt', 'code'],
  ['/usr/bin/time -o OUT/t ls', 'code'],
  ['history -w OUT/h', 'code'],
  ['base64 --output OUT/b a.txt', 'code'],
  // 6. auto-edit runs only edits inside the workspace.
  ["cd repo && git rebase -x 'touch pwn' HEAD~1", 'code'],
  ["cd repo && git submodule foreach 'touch pwn'", 'code'],
  ["cd repo && git difftool -x 'touch pwn'", 'code'],
  ['crontab a.txt', 'code'],
  ['echo x >> ~/.bashrc', 'code'],
  ['cat a.txt > /dev/tcp/127.0.0.1/9', 'code'],
  ['date -s 2020-01-01', 'code'],
  ['hostname x', 'code'],
  ['git clone https://example.com/x.git', 'code'],
  ['cd repo && git fetch', 'code'],
  ['cd repo && git pull', 'code'],
];

/** From the manuals: reads that must stay reads (so asking stays rare) and everything around them. */
const MANUALS: [string, Expect][] = [
  // coreutils and friends, plain.
  ['ls -la', 'read'], ['ls -lah dir', 'read'], ['ls --color=never', 'read'], ['ls --so=size', 'read'], ['ls -R dir', 'read'],
  ['cat -n a.txt', 'read'], ['cat --number a.txt', 'read'], ['cat --number-n a.txt', 'read'], ['cat --num a.txt', 'asks'], ['head -n 5 a.txt', 'read'], ['head -5 a.txt', 'read'],
  ['head --lines=3 a.txt', 'read'], ['tail -n +2 a.txt', 'read'], ['tail -c 10 a.txt', 'read'], ['wc -l a.txt b.txt', 'read'], ['wc --lines a.txt', 'read'],
  ['sort -u a.txt', 'read'], ['sort -k2,2n a.txt', 'read'], ['sort --rev a.txt', 'read'], ['uniq -c a.txt', 'read'], ['cut -d: -f1 a.txt', 'read'],
  ['tr a-z A-Z < a.txt', 'read'], ['nl -ba a.txt', 'read'], ['od -c a.txt', 'read'], ['cmp a.txt b.txt', 'read'], ['comm -12 a.txt b.txt', 'read'],
  ['diff -u a.txt b.txt', 'read'], ['diff -r dir dir', 'read'], ['stat a.txt', 'read'], ['du -sh dir', 'read'], ['realpath a.txt', 'read'],
  ['basename /x/y.txt .txt', 'read'], ['dirname a/b', 'read'], ['seq 1 10', 'read'], ["printf '%s\\n' x", 'read'], ['echo -n hi', 'read'],
  ['pwd', 'read'], ['whoami', 'read'], ['id -u', 'read'], ['uname -a', 'read'], ['date +%s', 'read'], ['date -u +%F', 'read'],
  ['sha256sum a.txt', 'read'], ['md5sum -c sums.txt', 'read'], ['base64 a.txt', 'read'], ['base64 -d a.txt', 'read'], ['xxd a.txt', 'read'],
  ['file a.txt', 'read'], ['tree dir', 'read'], ['nproc', 'read'], ['df -h', 'read'], ['free -m', 'read'], ['node --version', 'read'],
  ['fold -w 20 a.txt', 'read'], ['paste a.txt b.txt', 'read'], ['join a.txt b.txt', 'read'], ['expand a.txt', 'read'], ['tac a.txt', 'read'],
  ['column -t a.txt', 'read'], ['strings a.txt', 'read'], ['cksum a.txt', 'read'], ['numfmt --to=iec 2048', 'read'], ['factor 12', 'read'],
  // Search.
  ['grep -n foo a.txt', 'read'], ['grep -rn foo dir', 'read'], ['grep -e foo -e bar a.txt', 'read'], ["grep --include='*.txt' -r foo dir", 'read'],
  ['grep -c foo a.txt b.txt', 'read'], ['grep -A2 foo a.txt', 'read'], ['rg foo dir', 'read'], ["rg -n --glob '*.txt' foo dir", 'read'], ['rg foo', 'asks'], ['cd dir && rg foo', 'read'],
  ['rg --files dir', 'read'], ['find dir -type f', 'read'], ["find . -maxdepth 1 -name '*.txt'", 'read'], ['find dir -newer a.txt', 'read'],
  ['fd txt dir', 'read'], ['jq . package.json', 'read'], ['jq -r .name package.json', 'read'], ["jq --arg x y '.name' package.json", 'read'],
  // sed and awk.
  ['sed -n 1,5p a.txt', 'read'], ["sed 's/a/b/g' a.txt", 'read'], ["sed -E 's/(a)/\\1/' a.txt", 'read'], ["sed -e 's/a/b/' -e 's/c/d/' a.txt", 'read'],
  ["sed 'r dir/a.txt' a.txt", 'read'], ["awk 'NR==1' a.txt", 'read'], ["awk -F: '{print $1}' a.txt", 'read'], ["awk -v n=2 'NR==n' a.txt", 'read'],
  // Builtins, plain.
  ['test -f a.txt', 'read'], ['[ -d dir ]', 'read'], ['[[ -n "$x" ]]', 'read'], ['[[ $x == y ]]', 'read'], ['[[ 1 -lt 2 ]]', 'read'], ['x=1; echo $x', 'read'],
  ['read -r line < a.txt', 'read'], ['printf -v out %s x', 'read'], ['mapfile -t lines < a.txt', 'read'], ['set -euo pipefail', 'read'], ['shopt -p', 'read'],
  ['type ls', 'read'], ['command -v git', 'read'], ['hash', 'read'], ['hash -r', 'read'], ['ulimit -a', 'read'], ['umask', 'read'], ['echo ${x:-default}', 'read'],
  ['echo ${#x}', 'read'], ['echo $((1 + 2))', 'read'], ['echo "${arr[@]}"', 'read'], ['echo ${x%.txt}', 'read'], ['kill -l', 'read'], ['true', 'read'], [':', 'read'],
  ['TZ=UTC date', 'read'], ['LANG=C sort a.txt', 'read'], ['NO_COLOR=1 ls', 'read'], ['declare -p x', 'read'], ['unset x', 'read'], ['exit 0', 'read'],
  // Wrappers and pipes.
  ['timeout 5 cat a.txt', 'read'], ['nice -n 5 cat a.txt', 'read'], ['nohup cat a.txt', 'read'], ['stdbuf -oL cat a.txt', 'read'], ['time -p ls', 'read'],
  ['env LANG=C ls', 'read'], ['command cat a.txt', 'read'], ['cat a.txt | grep x | sort | uniq -c | head', 'read'], ['diff <(sort a.txt) <(sort b.txt)', 'read'],
  ['ls > /dev/null 2>&1', 'read'], ['ls dir/*.txt', 'read'], ['cat *.txt', 'read'], ['cat dir/*', 'read'],
  // git reads in a clean repository.
  ['cd repo && git status', 'read'], ['cd repo && git status -sb', 'read'], ['cd repo && git log --oneline -5', 'read'], ['cd repo && git diff --stat', 'read'],
  ['cd repo && git show --stat HEAD', 'read'], ['cd repo && git branch --list', 'read'], ['cd repo && git tag -l', 'read'], ['cd repo && git rev-parse HEAD', 'read'],
  ['cd repo && git ls-files', 'read'], ['cd repo && git blame a.txt', 'read'], ['cd repo && git remote -v', 'read'], ['cd repo && git config --get user.name', 'read'],
  ['cd repo && git stash list', 'read'], ['git -C repo log -1', 'read'], ['cd repo && git grep alpha', 'read'], ['cd repo && git show HEAD:a.txt', 'read'],

  // Not reads: options that write or run, from the manuals.
  ['sort -o out.txt a.txt', 'edit'], ['sort --output=out.txt a.txt', 'edit'], ['sort -T OUT a.txt', 'code'], ['sort --compress-program=gzip a.txt', 'code'],
  ['sort --random-source=/etc/shadow a.txt', 'asks'], ['uniq a.txt out.txt', 'edit'], ['tee out.txt', 'edit'], ['wc --files0-from=/etc/passwd', 'asks'],
  ['du --files0-from=OUT/x', 'asks'], ['head /etc/passwd', 'asks'], ['tail -f /var/log/syslog', 'asks'], ['cat OUT/secret.txt', 'asks'], ['cat ../outside/secret.txt', 'asks'],
  ['ls /', 'asks'], ['ls ~', 'asks'], ['cat ~/.bashrc', 'asks'], ['cat $FILE', 'asks'], ['cat "$(echo a.txt)"', 'asks'], ['cat .*', 'asks'], ['cat a.txt .env', 'asks'],
  ['cat ./.env', 'asks'], ['cat dir/../.env', 'asks'], ['cat "$HOME/.ssh/id_rsa"', 'asks'], ['cat ~/.aws/credentials', 'asks'], ['cat keys/server.pem', 'asks'],
  ['cat keys/*', 'asks'], ['grep -r foo .', 'asks'], ['grep -R foo keys', 'asks'], ['grep foo -r', 'asks'], ['rg --hidden foo', 'asks'], ['rg foo keys', 'asks'],
  ['rg -uu foo', 'asks'], ['rg --pre cat foo', 'code'], ['rg --hostname-bin=id foo', 'code'], ['rg --pre=cat foo', 'code'], ['fd -x cat', 'asks'],
  ['date -f /etc/shadow', 'asks'], ['date --file=/etc/shadow', 'asks'], ['date --fi=/etc/shadow', 'asks'], ['date 0101000030', 'asks'], ['od /etc/shadow', 'asks'],
  ['diff /etc/passwd a.txt', 'asks'], ['diff -r . dir', 'asks'], ['cmp /etc/shadow a.txt', 'asks'], ['strings /proc/self/environ', 'asks'], ['xxd a.txt out.bin', 'edit'],
  ['xxd -r a.txt', 'asks'], ['tree -o out.txt', 'edit'], ['file -C -m magic', 'asks'], ['ls --quoting-style=$X', 'asks'], ['ls $OPTS', 'asks'],
  // sed and awk.
  ["sed 'r /etc/shadow' a.txt", 'asks'], ["sed 'R /etc/passwd' a.txt", 'asks'], ['sed -f script.sed a.txt', 'asks'], ['sed -s -i s/a/b/ a.txt', 'edit'],
  ["sed 'e id' a.txt", 'code'], ["sed 's/x/id/e' a.txt", 'code'], ['sed --follow-symlinks -i s/a/b/ a.txt', 'edit'], ["sed --expression='w out' a.txt", 'asks'],
  ['sed -i s/a/b/ OUT/secret.txt', 'code'], ['sed -i s/a/b/ *.json', 'code'], ['sed -i s/a/b/ .env', 'code'], ['sed s/a/b/ /etc/passwd', 'asks'],
  ['awk -f prog.awk a.txt', 'asks'], ["awk 'BEGIN{system(\"id\")}'", 'code'], ['awk \'{print | "sh"}\' a.txt', 'code'],
  ['awk \'BEGIN{getline l < "/etc/shadow"; print l}\'', 'asks'], ['awk \'BEGIN{ARGV[1]="/etc/shadow"; ARGC=2} {print}\' a.txt', 'asks'],
  ["awk '{print}' /etc/shadow", 'asks'], ["gawk -i inplace '{print}' a.txt", 'asks'], ["gawk -l filefuncs 'BEGIN{}'", 'asks'], ['gawk -E prog.awk', 'asks'],
  ["awk --exec=prog.awk", 'asks'], ["awk '{print}' .env", 'asks'],
  // jq, find, xargs, env.
  ["jq --rawfile s /etc/shadow -n '$s'", 'asks'], ['jq . /etc/passwd', 'asks'], ['jq -f OUT/x .', 'asks'], ['find / -name x', 'asks'], ['find . -delete', 'asks'],
  ['find . -fprint out.txt', 'edit'], ['find . -exec rm {} +', 'asks'], ["find . -execdir sh -c 'id' \\;", 'code'], ['find . -newer /etc/shadow', 'asks'],
  ['find . -ok rm {} \\;', 'asks'], ['find . -exec cat {} +', 'asks'], ['find . -fls OUT/l', 'code'], ['xargs -a /etc/passwd echo', 'asks'], ['xargs -p echo', 'asks'],
  ["xargs sh -c 'id'", 'code'], ['xargs cat', 'asks'], ["env -S 'sh -c id'", 'code'], ['env -C / ls', 'asks'], ['env FOO=1 ls', 'code'], ['env PATH=. ls', 'code'],
  ['env -i bash -c id', 'code'], ['printenv', 'code'], ['printenv HOME', 'code'],
  // Wrappers around writes and code.
  ['nice -n 5 rm a.txt', 'code'], ['timeout 5 touch x', 'edit'], ['time -o out.txt ls', 'asks'], ['stdbuf -oL cat /etc/passwd', 'asks'],
  ['command -p cat /etc/shadow', 'asks'], ['exec touch x', 'edit'], ['exec 3>out.txt', 'edit'], ['nohup touch OUT/x', 'code'], ['timeout --sig=KILL 5 cat a.txt', 'read'],
  // Variables and builtins.
  ['set', 'code'], ['declare', 'code'], ['declare -p', 'code'], ['export -p', 'code'], ['export FOO=bar', 'code'], ['export PATH=.:$PATH', 'code'],
  ['declare -x FOO=1', 'code'], ['declare -i x=1', 'code'], ['local -n r=x', 'code'], ['readonly PATH=.', 'code'], ['IFS=x; ls', 'code'], ['PATH=.; ls', 'code'],
  ["PS4='$(touch x)'; set -x; ls", 'code'], ["PROMPT_COMMAND='touch x'", 'code'], ['BASH_ENV=./x bash -c ls', 'code'], ['LD_PRELOAD=./x.so ls', 'code'],
  ['GIT_DIR=evil git status', 'code'], ['GIT_CONFIG_GLOBAL=./x git status', 'code'], ['GIT_SSH_COMMAND=id git fetch', 'code'], ["PAGER='sh -c id' git log", 'code'],
  ['shopt -s extdebug', 'code'], ['set -a', 'code'], ['set -o vi', 'code'], ['set -T', 'code'], ['let x=y', 'code'], ['(( x = y ))', 'code'],
  ['for ((i=0;i<2;i++)); do :; done', 'code'], ['echo ${!x}', 'code'], ['echo ${x@P}', 'code'], ['echo ${x:0:$y}', 'code'], ['echo ${a[i]}', 'code'],
  ['echo $[x+1]', 'code'], ["mapfile -C 'id' arr < a.txt", 'code'], ["compgen -W '$(id)' x", 'code'], ['compgen -F f x', 'code'], ['jobs -x id', 'code'],
  ['ulimit -n 10', 'code'], ['umask 000', 'code'], ['wait $!', 'code'], ['history -c', 'code'], ['shift $n', 'code'], ['exit $((x))', 'code'],
  ['read -a "a[$(id)]"', 'code'], ['getopts ab "o[$(id)]"', 'code'], ['declare -A m=([k]=1)', 'asks'], ['declare -a a=([i]=1)', 'code'],
  // git.
  ['git -c core.pager=sh log', 'code'], ['git --exec-path=. status', 'code'], ['cd repo && git -p log', 'code'], ['cd repo && git log --output=OUT/x', 'asks'],
  ['cd repo && git diff --output=x', 'asks'], ['cd repo && git diff --ext-diff', 'asks'], ['cd repo && git diff --textconv', 'asks'],
  ['cd repo && git diff --no-index /etc/passwd a.txt', 'asks'], ['cd repo && git grep -O foo', 'asks'], ['cd repo && git grep --open-files-in-pager=sh foo', 'asks'],
  ['cd repo && git log --out=x', 'asks'], ['cd repo && git cat-file --textconv HEAD:a.txt', 'asks'], ['cd repo && git cat-file --filters HEAD:a.txt', 'asks'],
  ['cd repo && git branch new', 'edit'], ['cd repo && git tag v1', 'edit'], ['cd repo && git config user.name x', 'code'], ['cd repo && git config --list', 'asks'],
  ['cd repo && git stash', 'edit'], ['cd repo && git remote add o https://example.com/x', 'edit'], ['cd repo && git remote update', 'code'],
  ['cd repo && git log -p -- .env', 'asks'], ['cd repo && git diff HEAD -- id_rsa', 'asks'], ['cd repo && git show :keys/x.pem', 'asks'],
  ['cd repo && git archive --remote=x HEAD', 'code'], ['cd repo && git help log', 'asks'], ['cd repo && git bisect run make', 'code'],
  ['cd repo && git fsck --lost-found', 'asks'], ['cd repo && git submodule update', 'code'], ['cd repo && git add a.txt', 'edit'], ['cd repo && git commit -m x', 'edit'],
  ['git -C OUT status', 'asks'], ['cd OUT && ls', 'asks'], ['cd ~/.ssh && ls -la', 'asks'], ['cd dir && ls', 'read'], ['cd OUT && git status', 'asks'], ['cd repo && git status $X', 'asks'], ['cd repo && git log --format=%H', 'read'],
  // tar and compressors.
  ['tar -xf a.tar', 'edit'], ['tar xzf a.tgz', 'edit'], ['tar -tf a.tar', 'asks'], ['tar -xf a.tar -C OUT', 'code'], ['tar -xPf a.tar', 'code'],
  ["tar -I 'sh -c id' -xf a.tar", 'code'], ['tar --to-command=sh -xf a.tar', 'code'], ['tar --use-compress-program=id -xf a.tar', 'code'], ['tar -xf host:a.tar', 'code'],
  ['tar --info-script=x -cf a.tar a.txt', 'code'], ['tar --new-volume-script=x -cf a.tar a.txt', 'code'], ['tar --rmt-command=x -cf a.tar a.txt', 'code'],
  ['tar --index-file=OUT/x -cf a.tar a.txt', 'code'], ['gzip a.txt', 'edit'], ['gzip -c a.txt', 'read'], ['gunzip -l a.gz', 'read'], ['zcat a.gz', 'read'], ['xz -d a.xz', 'edit'],
  ['gzip OUT/secret.txt', 'code'], ['unzip a.zip -d OUT', 'code'], ['unzip a.zip', 'edit'],
  // The network.
  ['curl https://example.com', 'code'], ['wget https://example.com', 'code'], ['nc -l 1234', 'code'], ['ssh h', 'code'], ['exec 3<>/dev/tcp/h/80', 'code'],
  ['echo x > /dev/udp/h/53', 'code'], ["bash -c 'cat </dev/tcp/h/1'", 'code'],
  // Writes outside the workspace or to protected files are not edits.
  ['touch OUT/x', 'code'], ['mkdir ~/x', 'code'], ['cp a.txt OUT/', 'code'], ['mv a.txt ../x', 'code'], ['echo x > ../outside/y', 'code'], ['tee ~/x', 'code'],
  ['ln -s /etc/shadow link', 'code'], ['ln /etc/shadow hard', 'code'], ['cp /etc/shadow .', 'code'], ['echo x > repo/.git/config', 'code'],
  ['echo x > toolbelt.config.json', 'asks'], ['echo x >> toolbelt.config.json', 'code'], ['echo x >> .env', 'code'], ['chmod +x OUT/x', 'code'], ['sort -o OUT/x a.txt', 'code'],
  ['git init OUT/x', 'code'], ['rsync a.txt b.txt', 'code'], ['patch -d OUT -p1 < x.patch', 'code'], ['touch new.txt', 'edit'], ['mkdir -p build/x', 'edit'],
  ['cp a.txt c.txt', 'edit'], ['echo x > new.txt', 'edit'], ['ln -s a.txt link', 'edit'], ['cp dir/a.txt dir/c.txt', 'edit'], ['touch "$X"', 'code'],
];

describe('the allow-list rule', () => {
  it("treats the workspace's protected paths (the config given with --config) like secrets", async () => {
    const opts = { cwd: t.root, roots: [t.root], home: t.home, env: {}, isProtected: (p: string) => p.endsWith('custom-config.json') };
    expect((await classifyCommand('cat custom-config.json', opts)).effect).toBe('execute');
    expect((await classifyCommand('grep -r x dir', opts)).effect).toBe('read');
    expect((await classifyCommand('echo x > custom-config.json', opts)).effect).not.toBe('write');
  });

  it('covers every spelling the review found and at least 150 more from the manuals', () => {
    expect(FOUND.length).toBeGreaterThanOrEqual(70);
    expect(MANUALS.length).toBeGreaterThanOrEqual(150);
    const all = [...FOUND, ...MANUALS, ...REGRESSIONS].map(([c]) => c);
    expect(new Set(all).size).toBe(all.length);
  });

  it.each([...FOUND, ...MANUALS, ...REGRESSIONS])('%j: %s', async (script, expected) => {
    const c = await classify(script);
    const why = `${c.effect}: ${c.reason}`;
    if (expected === 'read') expect(c.effect, why).toBe('read');
    if (expected === 'asks') expect(c.effect, why).not.toBe('read');
    if (expected === 'code') expect(['execute', 'destructive'], why).toContain(c.effect);
    if (expected === 'edit') expect(c.effect, why).toBe('write');
  });
});
