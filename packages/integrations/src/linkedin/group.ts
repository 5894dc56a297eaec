// The linkedin tools' group.
import { defineGroup } from '@toolbelt/core';

export const LINKEDIN = defineGroup('linkedin', 'LinkedIn job postings');
