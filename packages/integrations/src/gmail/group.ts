// The gmail tools' group.
import { defineGroup } from '@toolbelt/core';

export const GMAIL = defineGroup('gmail', 'search, read and send mail');
