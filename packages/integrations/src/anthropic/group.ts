// The anthropic tools' group.
import { defineGroup } from '@toolbelt/core';

export const ANTHROPIC = defineGroup('anthropic', 'Anthropic organization usage and cost');
