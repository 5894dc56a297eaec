// The `search` section of toolbelt.config.json: which grep engine runs, and which rg binary.
import { z } from 'zod';
import { nonEmptyString, oneOf } from '@toolbelt/core';

export const searchSection = z
  .strictObject({
    rgPath: nonEmptyString('a path to rg or a program name').describe('The rg binary; default: rg on PATH').optional(),
    engine: oneOf(['auto', 'rg', 'js'])
      .describe('auto (rg when present), rg (fail without it) or js. Default auto')
      .optional(),
  })
  .describe('glob and grep');

export type SearchSettings = z.infer<typeof searchSection>;
