// The file tools, one per file. Every path goes through ctx.workspace (the guard).
import type { Tool } from '@toolbelt/core';
import { appendFile } from './append_file.js';
import { copyFile } from './copy_file.js';
import { createDirectory } from './create_directory.js';
import { deleteFile } from './delete_file.js';
import { editFile } from './edit_file.js';
import { listDirectory } from './list_directory.js';
import { moveFile } from './move_file.js';
import { readFile } from './read_file.js';
import { writeFile } from './write_file.js';

export { appendFile, copyFile, createDirectory, deleteFile, editFile, listDirectory, moveFile, readFile, writeFile };

export function fsTools(): Tool[] {
  return [readFile, writeFile, editFile, appendFile, deleteFile, listDirectory, createDirectory, copyFile, moveFile];
}
