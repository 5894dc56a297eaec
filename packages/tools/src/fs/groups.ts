// The file tools' groups: reading and editing, and managing files (the rarer half, loaded on demand).
import { defineGroup } from '@toolbelt/core';

export const FILES = defineGroup('files', 'read, write, edit and list files');
export const FILE_OPS = defineGroup('file_ops', 'mkdir, move, copy, append, delete');
