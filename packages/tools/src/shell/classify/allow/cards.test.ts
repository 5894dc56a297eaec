// Every command card's examples, classified as the card says, in the safety tables' tree: the rule,
// its severity and its examples cannot drift apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand } from '../classify.js';
import { makeSafetyTree, type SafetyTree } from '../__fixtures__/tree.js';
import { severity, type Effect } from '../types.js';
import type { Card, Examples, Verdict } from './card.js';
import { handlerFor } from '../commands/index.js';
import { CARDS, cardFor, readSpecFor } from './index.js';

let t: SafetyTree;
beforeAll(() => {
  t = makeSafetyTree();
});
afterAll(() => t.remove());

const classify = (script: string, readsConfined: boolean) =>
  classifyCommand(script.replaceAll('OUT', t.outside), {
    cwd: t.root,
    roots: [t.root],
    home: t.home,
    env: { PATH: '/usr/bin:/bin', HOME: t.home },
    ...(readsConfined ? { readsConfined } : {}),
  });

const AT_LEAST: Record<Verdict, Effect> = { read: 'read', asks: 'read', edit: 'write', code: 'execute' };

function rows(card: Card, examples: Examples | undefined, confined: boolean): [string, Verdict, boolean, Card][] {
  if (!examples) return [];
  return (Object.entries(examples) as [Verdict, string[]][]).flatMap(([v, list]) =>
    list.map((s): [string, Verdict, boolean, Card] => [s, v, confined, card]),
  );
}

const ALL = CARDS.flatMap((c) => [...rows(c, c.examples, false), ...rows(c, c.confined, true)]);

describe('command cards', () => {
  it('map each name to one card, whose rule the allow-list uses', () => {
    const names = CARDS.flatMap((c) => c.names);
    expect(new Set(names).size).toBe(names.length);
    for (const card of CARDS) for (const name of card.names) expect(readSpecFor(name), name).toBe(card.spec);
  });

  it("give their handler, the one name -> card map's, to the classifier", () => {
    for (const card of CARDS)
      for (const name of card.names) {
        expect(cardFor(name), name).toBe(card);
        if (card.handler) expect(handlerFor(name), name).toBe(card.handler);
      }
  });

  it('have examples of a read and of an ask each', () => {
    for (const card of CARDS) {
      const all = [card.examples, card.confined ?? {}];
      expect(
        all.some((e) => e.read?.length),
        card.names[0],
      ).toBe(true);
      expect(
        all.some((e) => e.asks?.length || e.code?.length || e.edit?.length),
        card.names[0],
      ).toBe(true);
    }
  });

  it.each(ALL.map(([s, v, confined, card]) => [s, v, confined ? 'in the sandbox' : 'outside it', card] as const))(
    '%j is %s %s',
    async (script, verdict, where, card) => {
      const c = await classify(script, where === 'in the sandbox');
      const why = `${c.effect}: ${c.reason}`;
      if (verdict === 'read') expect(c.effect, why).toBe('read');
      if (verdict === 'asks') expect(c.effect, why).not.toBe('read');
      if (verdict === 'edit') expect(c.effect, why).toBe('write');
      if (verdict === 'code') expect(['execute', 'destructive'], why).toContain(c.effect);
      // The card's severity bounds what its examples show.
      expect(severity(card.worst), `${card.names[0]} worst ${card.worst}`).toBeGreaterThanOrEqual(
        severity(AT_LEAST[verdict]),
      );
    },
  );
});
