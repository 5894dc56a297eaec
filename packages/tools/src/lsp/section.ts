// The `lsp` section of toolbelt.config.json: language servers by name, beside (or instead of) the
// bundled TypeScript one.
import { z } from 'zod';
import { nonEmptyString, stringList } from '@toolbelt/core';

const lspServerSchema = z.strictObject({
  command: nonEmptyString('the program that starts the server'),
  args: stringList().optional(),
  extensions: stringList('a list of file extensions, such as [".py"]'),
  languageId: z.string().optional(),
});

export const lspSection = z
  .record(z.string(), lspServerSchema)
  .describe('Language servers by name; "typescript" replaces the bundled one');

export type LspConfigEntry = z.infer<typeof lspServerSchema>;
