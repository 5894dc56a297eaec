// The WHERE clause of a listing query, built one optional filter at a time: a filter left
// undefined adds nothing, so each query states its filters in one line apiece.
import { placeholders } from './rows.js';

export class SqlWhere {
  private readonly conditions: string[] = [];
  readonly args: unknown[] = [];

  /** Adds `condition` (one `?`, bound to `value`) unless the value is undefined. */
  add(condition: string, value: unknown): this {
    if (value === undefined) return this;
    this.conditions.push(condition);
    this.args.push(value);
    return this;
  }

  /** Adds `condition` (no argument) when `on`. */
  when(on: boolean | undefined, condition: string): this {
    if (on) this.conditions.push(condition);
    return this;
  }

  /** `column IN (...)` unless the list is undefined; an empty list matches nothing. */
  in(column: string, values: readonly unknown[] | undefined): this {
    if (!values) return this;
    this.conditions.push(`${column} IN (${placeholders(values.length) || 'NULL'})`);
    this.args.push(...values);
    return this;
  }

  /** `column IN (...)` unless the list is undefined or empty: an empty list means no filter. */
  inUnlessEmpty(column: string, values: readonly unknown[] | undefined): this {
    return values?.length ? this.in(column, values) : this;
  }

  /** `WHERE a AND b`, or nothing when no filter was added. */
  get sql(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}
