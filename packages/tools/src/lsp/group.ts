// The language-server tools' group.
import { defineGroup } from '@toolbelt/core';

export const CODE = defineGroup('code', 'diagnostics, symbols, definitions, references, hover');
