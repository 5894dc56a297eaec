import { describe, expect, it } from 'vitest';
import { awkProgramPower, sedScriptPower } from './sed-awk.js';

describe('sed scripts', () => {
  it.each([
    ['p', 'read'],
    ['1,20p', 'read'],
    ['s/a/b/g', 'read'],
    ['s|/usr/bin|/opt/bin|g', 'read'],
    ['/^#/d; s/x/y/2', 'read'],
    ['$!N; /foo/{p;q}', 'read'],
    ['s/a\\/w/b/', 'read'],
    ['y/abc/xyz/', 'read'],
    ['a\\\nappended text', 'read'],
    ['w out.txt', 'write'],
    ['s/a/b/w out.txt', 'write'],
    ['/x/W log', 'write'],
    ['1e date', 'execute'],
    ['s/.*/date/e', 'execute'],
    ['v 4.2', 'execute'],
  ])('%j is %s', (script, power) => {
    expect(sedScriptPower(script)).toBe(power);
  });
});

describe('awk programs', () => {
  it.each([
    ['{print $1}', 'read'],
    ['$3 > 100 {print $1}', 'read'],
    ['/a|b/ {n++} END {print n}', 'read'],
    ['{ if ($1 > 0 || $2 > 0) print }', 'read'],
    ['{ print "a > b" }', 'read'],
    ['{ print > "out.txt" }', 'write'],
    ['{ printf "%s\\n", $0 >> "log" }', 'write'],
    ['BEGIN { system("rm -rf x") }', 'execute'],
    ['{ print | "sort" }', 'execute'],
    ['BEGIN { "date" | getline d }', 'execute'],
    ['@load "filefuncs"', 'execute'],
  ])('%j is %s', (program, power) => {
    expect(awkProgramPower(program)).toBe(power);
  });
});
