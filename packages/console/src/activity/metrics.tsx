// Live metrics: calls per second and error rate over the last minutes, p50 / p99 per tool.
import { useEffect, useState } from 'preact/hooks';
import type { MetricsAnswer } from '@toolbelt/protocol';
import { api } from '../api.js';
import { ChartCanvas } from '../ui/chart.js';
import { clock, ms } from '../ui/format.js';

const EVERY_MS = 2000;
const KEEP = 60;

interface Point {
  ts: number;
  rate: number;
  errorRate: number;
}

const totals = (m: MetricsAnswer) =>
  m.tools.reduce((a, t) => ({ calls: a.calls + t.calls, errors: a.errors + t.errors }), { calls: 0, errors: 0 });

function useMetrics(): { last?: MetricsAnswer; points: Point[]; error?: string } {
  const [last, setLast] = useState<MetricsAnswer>();
  const [points, setPoints] = useState<Point[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let prev: MetricsAnswer | undefined;
    const tick = () =>
      api('metrics')
        .then((m) => {
          if (prev) {
            const a = totals(prev);
            const b = totals(m);
            const calls = b.calls - a.calls;
            const point = {
              ts: m.ts,
              rate: (calls * 1000) / Math.max(1, m.ts - prev.ts),
              errorRate: calls ? ((b.errors - a.errors) / calls) * 100 : 0,
            };
            setPoints((p) => [...p.slice(-KEEP + 1), point]);
          }
          prev = m;
          setLast(m);
          setError(undefined);
        })
        .catch((e: Error) => setError(e.message));
    void tick();
    const timer = setInterval(tick, EVERY_MS);
    return () => clearInterval(timer);
  }, []);
  return { last, points, error };
}

function ToolTable({ tools }: { tools: MetricsAnswer['tools'] }) {
  return (
    <table class="wide">
      <thead>
        <tr>
          <th>tool</th>
          <th>calls</th>
          <th>errors</th>
          <th>p50</th>
          <th>p99</th>
        </tr>
      </thead>
      <tbody>
        {tools.map((t) => (
          <tr key={t.tool}>
            <td>
              <code>{t.tool}</code>
            </td>
            <td>{t.calls}</td>
            <td>{t.errors}</td>
            <td>{ms(t.p50Ms)}</td>
            <td>{ms(t.p99Ms)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A live line chart over the last readings, its axis from 0, saying in words when nothing happens. */
function RateChart({
  caption,
  label,
  unit,
  values,
  labels,
  idle,
}: {
  caption: string;
  label: string;
  unit: string;
  values: number[];
  labels: string[];
  idle: string;
}) {
  const quiet = values.every((v) => v === 0);
  return (
    <figure>
      <figcaption>
        {caption} {values.length > 0 && quiet && <span class="muted">· {idle}</span>}
      </figcaption>
      <ChartCanvas
        type="line"
        height={120}
        animate={false}
        fromZero={1}
        label={label}
        data={{ labels, datasets: [{ label: unit, data: values }] }}
      />
    </figure>
  );
}

export function Metrics() {
  const { last, points, error } = useMetrics();
  if (error) return <p class="error">Metrics: {error}</p>;
  const labels = points.map((p) => clock(p.ts));
  const tools = (last?.tools ?? []).filter((t) => t.calls > 0).sort((a, b) => b.calls - a.calls);
  return (
    <div class="metrics">
      <RateChart
        caption="Calls / s"
        label="calls per second"
        unit="calls/s"
        values={points.map((p) => p.rate)}
        labels={labels}
        idle="idle: no calls"
      />
      <RateChart
        caption="Error rate %"
        label="error rate"
        unit="errors %"
        values={points.map((p) => p.errorRate)}
        labels={labels}
        idle="no errors"
      />
      <figure class="wide">
        <figcaption>
          Run time per tool, p50 and p99 (ms){' '}
          <span class="muted">· the tool's own time, not the wait for approval</span>
        </figcaption>
        {tools.length === 0 ? (
          <p class="empty">No calls yet. Each tool's run time shows here once it has been called.</p>
        ) : (
          <ChartCanvas
            type="bar"
            height={140}
            animate={false}
            fromZero={1}
            label="p50 and p99 run time per tool"
            data={{
              labels: tools.map((t) => t.tool),
              datasets: [
                { label: 'p50', data: tools.map((t) => Math.round(t.p50Ms * 10) / 10) },
                { label: 'p99', data: tools.map((t) => Math.round(t.p99Ms * 10) / 10) },
              ],
            }}
          />
        )}
      </figure>
      {tools.length > 0 && <ToolTable tools={tools} />}
    </div>
  );
}
