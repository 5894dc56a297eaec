// A ToolResult as the text a model reads, for frameworks whose tool results are strings.
import { textOf, type ToolResult } from '@toolbelt/core';

/**
 * Success: the content. Error: the code and the message, which says what to do next. Rejected: the
 * reason with the person's words ("... The user said: wrong file"), so the model can change course.
 */
export function resultText(result: ToolResult): string {
  if (result.status === 'error') return `Error (${result.error.code}): ${result.error.message}`;
  return textOf(result);
}
