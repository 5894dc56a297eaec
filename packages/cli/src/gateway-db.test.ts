import { describe, expect, it } from 'vitest';
import { describeDb, isPostgresUrl, pgTarget } from './gateway-db.js';

describe('the gateway database named on the command line', () => {
  it('tells a PostgreSQL URL from a file', () => {
    expect(isPostgresUrl('postgres://u@h/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u@h/db')).toBe(true);
    expect(isPostgresUrl('./postgres.db')).toBe(false);
  });

  it('hides the password wherever the URL is shown', () => {
    expect(describeDb('postgres://tb:s3cret@h:5432/db')).toBe('postgres://tb:***@h:5432/db');
    expect(describeDb('/var/lib/gw.db')).toBe('/var/lib/gw.db');
  });

  it('takes ?schema= for itself and leaves the rest of the URL to the driver', () => {
    expect(pgTarget('postgres://tb@h/db?schema=team_a&sslmode=require')).toEqual({
      url: 'postgres://tb@h/db?sslmode=require',
      schema: 'team_a',
    });
    expect(pgTarget('postgres://tb@h/db')).toEqual({ url: 'postgres://tb@h/db' });
    expect(() => pgTarget('postgres://[bad')).toThrow(
      /not a valid URL; write it as postgres:\/\/user:password@host:5432\/database/,
    );
  });
});
