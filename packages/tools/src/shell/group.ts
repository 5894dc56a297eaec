// The shell tools' group.
import { defineGroup } from '@toolbelt/core';

export const SHELL = defineGroup('shell', 'run commands (background too)');
