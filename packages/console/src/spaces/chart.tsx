// A chart from the call's { type, data } arguments (displayChart).
import { ChartCanvas } from '../ui/chart.js';
import { chartTypeOf, toChartData } from '../ui/chart-data.js';
import type { CallProps } from './renderers.js';

export function ChartCall({ message }: CallProps) {
  const input = (message.input ?? {}) as { type?: unknown; data?: unknown; title?: unknown };
  const data = toChartData(input.data);
  const title = typeof input.title === 'string' ? input.title : `${chartTypeOf(input.type)} chart`;
  if (typeof data === 'string') return <p class="error">This chart cannot be drawn: {data}.</p>;
  return (
    <figure class="chart-call">
      <figcaption>{title}</figcaption>
      <ChartCanvas type={chartTypeOf(input.type)} data={data} label={title} />
    </figure>
  );
}
