// The search tools' group.
import { defineGroup } from '@toolbelt/core';

export const SEARCH = defineGroup('search', 'find files by name and text by regex');
