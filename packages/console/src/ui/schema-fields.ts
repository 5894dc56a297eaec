// The fields of a JSON Schema object, and the input they make. Pure: no page needed to test it.
export interface Field {
  name: string;
  /** What the schema calls it for people, when it says. */
  title?: string;
  kind: 'string' | 'long' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
  required: boolean;
  description?: string;
  options?: string[];
  default?: unknown;
}

type Schema = Record<string, unknown>;

function kindOf(s: Schema): Field['kind'] {
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) return 'enum';
  if (choicesOf(s)) return 'enum';
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (type === 'string') return typeof s.maxLength === 'number' && s.maxLength <= 200 ? 'string' : 'long';
  return 'json';
}

/** Choices written as oneOf [{const, title}] (as MCP's elicitation forms allow). */
function choicesOf(s: Schema): string[] | undefined {
  const list = s.oneOf;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  return list.every((o) => o && typeof (o as Schema).const === 'string')
    ? list.map((o) => (o as Schema).const as string)
    : undefined;
}

export function fieldsOf(schema: Schema): Field[] {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(props).map(([name, s]) => {
    const kind = kindOf(s ?? {});
    const f: Field = { name, kind: kind === 'integer' ? 'number' : kind, required: required.has(name) };
    if (kind === 'integer') f.kind = 'integer';
    if (typeof s?.description === 'string') f.description = s.description;
    if (kind === 'enum') f.options = (s.enum as string[] | undefined) ?? choicesOf(s);
    if (typeof s?.title === 'string') f.title = s.title;
    if (s && 'default' in s) f.default = s.default;
    return f;
  });
}

export function initialValues(
  fields: Field[],
  initial: Record<string, unknown> = {},
): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const f of fields) {
    const v = f.name in initial ? initial[f.name] : f.default;
    if (f.kind === 'boolean') out[f.name] = v === true;
    else if (f.kind === 'json') out[f.name] = v === undefined ? '' : JSON.stringify(v, null, 2);
    else out[f.name] = v === undefined ? (f.kind === 'enum' && f.required ? (f.options?.[0] ?? '') : '') : String(v);
  }
  return out;
}

/** The input the form's values make: empty optional fields left out; a message when one is unreadable. */
export function toInput(fields: Field[], values: Record<string, string | boolean>): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'boolean') {
      if (v === true || f.required) out[f.name] = v === true;
      continue;
    }
    const text = String(v ?? '');
    if (text.trim() === '') {
      if (f.required) return `${f.name} is required`;
      continue;
    }
    if (f.kind === 'number' || f.kind === 'integer') {
      const n = Number(text);
      if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n)))
        return `${f.name} must be ${f.kind === 'integer' ? 'a whole number' : 'a number'}`;
      out[f.name] = n;
    } else if (f.kind === 'json') {
      try {
        out[f.name] = JSON.parse(text);
      } catch {
        return `${f.name} is not valid JSON: check quotes and brackets`;
      }
    } else out[f.name] = text;
  }
  return out;
}
