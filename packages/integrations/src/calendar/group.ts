// The calendar tools' group.
import { defineGroup } from '@toolbelt/core';

export const CALENDAR = defineGroup('calendar', 'list, read and create calendar events');
