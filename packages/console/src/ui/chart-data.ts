// Turns what an agent sends as chart data into Chart.js's shape: Chart.js's own { labels, datasets },
// a list of points ({ label | x | name, value | y }), or an object of label -> number.
export interface ChartData {
  labels: string[];
  datasets: { label?: string; data: number[] }[];
}

const CHART_TYPES = ['bar', 'line', 'pie', 'doughnut', 'radar', 'polarArea'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));

export function toChartData(data: unknown): ChartData | string {
  if (Array.isArray(data)) {
    if (data.every((d) => typeof d === 'number'))
      return { labels: data.map((_, i) => String(i + 1)), datasets: [{ data }] };
    const points = data as Record<string, unknown>[];
    const labels = points.map((p, i) => String(p?.label ?? p?.x ?? p?.name ?? i + 1));
    const values = points.map((p) => num(p?.value ?? p?.y ?? p?.count));
    if (values.some((v) => Number.isNaN(v))) return 'each point needs a numeric value (or y)';
    return { labels, datasets: [{ data: values }] };
  }
  if (data && typeof data === 'object') {
    const d = data as Record<string, unknown>;
    if (Array.isArray(d.labels) && Array.isArray(d.datasets)) return d as unknown as ChartData;
    const entries = Object.entries(d);
    if (entries.length && entries.every(([, v]) => !Number.isNaN(num(v))))
      return { labels: entries.map(([k]) => k), datasets: [{ data: entries.map(([, v]) => num(v)) }] };
  }
  return 'data should be { labels, datasets }, a list of { label, value }, or { label: number }';
}

export function chartTypeOf(type: unknown): ChartType {
  return CHART_TYPES.includes(type as ChartType) ? (type as ChartType) : 'bar';
}
