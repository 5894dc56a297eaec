// The `gateway` section's keys all mean something through gatewaySettingsFrom, the one place
// createGateway and `toolbelt serve` read them; `db` alone is the CLI's (it opens the store).
import { describe, expect, it } from 'vitest';
import { gatewaySection, gatewaySettingsFrom, type GatewaySection } from './config.js';

const PROBES: Record<string, GatewaySection> = {
  host: { host: '127.0.0.2' },
  port: { port: 7999 },
  tokens: { tokens: [{ tokenEnv: 'PROBE_TOKEN', roles: ['call'] }] },
  allowedHosts: { allowedHosts: ['gw.example'] },
  maxBodyBytes: { maxBodyBytes: 1234 },
  pendingTtlMs: { pendingTtlMs: 4321 },
  cycleLeaseMs: { cycleLeaseMs: 999 },
};

describe('gatewaySettingsFrom', () => {
  it('reads every key of the gateway section but db, and changes with each', () => {
    const keys = Object.keys(gatewaySection.shape).filter((k) => k !== 'db');
    expect(keys.sort()).toEqual(Object.keys(PROBES).sort());
    const defaults = gatewaySettingsFrom();
    for (const [key, section] of Object.entries(PROBES)) {
      expect(gatewaySection.parse(section), key).toEqual(section);
      expect(gatewaySettingsFrom(section), key).not.toEqual(defaults);
    }
  });
});
