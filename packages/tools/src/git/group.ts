// The git tools' group.
import { defineGroup } from '@toolbelt/core';

export const GIT = defineGroup('git', 'status, diff, log, branch, commit, push');
