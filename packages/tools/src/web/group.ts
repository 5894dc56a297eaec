// The web tools' group.
import { defineGroup } from '@toolbelt/core';

export const WEB = defineGroup('web', 'fetch pages, web search');
