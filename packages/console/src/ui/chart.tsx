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
  fromZero,
}: {
  type: ChartType;
  data: ChartData;
  label: string;
  height?: number;
  animate?: boolean;
  /** A value axis that starts at 0 and reaches at least this much: an idle chart reads 0, never −1…1. */
  fromZero?: number;
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
        ...(fromZero !== undefined ? { scales: { y: { min: 0, suggestedMax: fromZero } } } : {}),
      },
    });
    // The value axis as drawn, for people reading the page's source and for the browser tests.
    const y = chart.current.scales.y;
    if (y) ref.current.dataset.yRange = `${y.min}..${y.max}`;
    return () => chart.current?.destroy();
  }, [type, fromZero, JSON.stringify(data)]);
  return (
    <div class="chart" style={{ height: `${height}px` }}>
      <canvas ref={ref} role="img" aria-label={label} />
    </div>
  );
}
