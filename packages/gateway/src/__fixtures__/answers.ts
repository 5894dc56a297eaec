// What the tests read off a gateway's answers: fetch types a JSON body as unknown, and the API's
// errors have one shape, `{ error: { code, message } }`.
import type { ApiErrorBody } from '@toolbelt/protocol';

/** The error of an answer that is one. */
export async function errorOf(res: Response): Promise<ApiErrorBody['error']> {
  return ((await res.json()) as ApiErrorBody).error;
}
