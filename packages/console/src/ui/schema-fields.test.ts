import { describe, expect, it } from 'vitest';
import { fieldsOf, initialValues, toInput } from './schema-fields.js';
import { chartTypeOf, toChartData } from './chart-data.js';

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File to read' },
    offset: { type: 'integer' },
    ratio: { type: 'number', default: 0.5 },
    recursive: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'full'] },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['path', 'mode'],
};

describe('a form from a JSON Schema', () => {
  it("labels a field with the schema's title and offers oneOf constants as choices", () => {
    const [color] = fieldsOf({
      type: 'object',
      properties: {
        color: {
          type: 'string',
          title: 'Colour',
          oneOf: [
            { const: 'r', title: 'Red' },
            { const: 'g', title: 'Green' },
          ],
        },
      },
    });
    expect(color).toMatchObject({ name: 'color', title: 'Colour', kind: 'enum', options: ['r', 'g'] });
  });

  it('makes a field of the right kind per property, marking the required ones', () => {
    const fields = fieldsOf(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['path', 'long', true],
      ['offset', 'integer', false],
      ['ratio', 'number', false],
      ['recursive', 'boolean', false],
      ['mode', 'enum', true],
      ['tags', 'json', false],
    ]);
    expect(fields[0].description).toBe('File to read');
  });

  it('starts from defaults and given values, and sends typed input without empty optional fields', () => {
    const fields = fieldsOf(schema);
    const values = initialValues(fields, { path: 'a.ts', tags: ['x'] });
    expect(values).toMatchObject({ path: 'a.ts', ratio: '0.5', mode: 'fast', recursive: false, offset: '' });
    expect(toInput(fields, { ...values, offset: '3' })).toEqual({
      path: 'a.ts',
      offset: 3,
      ratio: 0.5,
      mode: 'fast',
      tags: ['x'],
    });
  });

  it('says what is wrong instead of sending bad input', () => {
    const fields = fieldsOf(schema);
    const values = initialValues(fields, { path: 'a.ts' });
    expect(toInput(fields, { ...values, path: ' ' })).toBe('path is required');
    expect(toInput(fields, { ...values, offset: '1.5' })).toBe('offset must be a whole number');
    expect(toInput(fields, { ...values, tags: '[1,' })).toBe('tags is not valid JSON: check quotes and brackets');
  });
});

describe('chart data from an agent', () => {
  it("takes Chart.js's shape, a list of points, or a map of label to number", () => {
    const own = { labels: ['a'], datasets: [{ data: [1] }] };
    expect(toChartData(own)).toBe(own);
    expect(
      toChartData([
        { label: 'Shinjuku', value: 180 },
        { x: 'Ginza', y: 240 },
      ]),
    ).toEqual({ labels: ['Shinjuku', 'Ginza'], datasets: [{ data: [180, 240] }] });
    expect(toChartData({ mon: 3, tue: '4' })).toEqual({ labels: ['mon', 'tue'], datasets: [{ data: [3, 4] }] });
    expect(toChartData([5, 6])).toEqual({ labels: ['1', '2'], datasets: [{ data: [5, 6] }] });
  });

  it('explains data it cannot draw, and falls back to a bar chart for an unknown type', () => {
    expect(toChartData([{ label: 'a', value: 'lots' }])).toBe('each point needs a numeric value (or y)');
    expect(toChartData('nope')).toMatch(/^data should be/);
    expect([chartTypeOf('pie'), chartTypeOf('sankey')]).toEqual(['pie', 'bar']);
  });
});
