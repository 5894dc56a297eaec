// A small Chart.js chart in a canvas, rebuilt when its data changes.
import { useEffect, useRef } from 'preact/hooks';
import { Chart, registerables } from 'chart.js';
import type { ChartData, ChartType } from './chart-data.js';

Chart.register(...registerables);

export function ChartCanvas({
  type,
  data,
  label,
  height = 220,
  animate = true,
}: {
  type: ChartType;
  data: ChartData;
  label: string;
  height?: number;
  animate?: boolean;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart>();
  useEffect(() => {
    if (!ref.current) return;
    chart.current?.destroy();
    // Bars grow and lines draw in unless the person asked for less motion.
    const still = !animate || matchMedia('(prefers-reduced-motion: reduce)').matches;
    chart.current = new Chart(ref.current, {
      type,
      data: structuredClone(data),
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: still ? false : undefined,
        plugins: { legend: { display: data.datasets.length > 1 || type === 'pie' || type === 'doughnut' } },
      },
    });
    return () => chart.current?.destroy();
  }, [type, JSON.stringify(data)]);
  return (
    <div class="chart" style={{ height: `${height}px` }}>
      <canvas ref={ref} role="img" aria-label={label} />
    </div>
  );
}
