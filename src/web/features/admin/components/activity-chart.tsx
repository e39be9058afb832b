import 'uplot/dist/uPlot.min.css';
import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';

export interface ChartSeries {
  label: string;
  /** One value per day, in the order of `days`. */
  values: readonly number[];
}

interface ActivityChartProps {
  title: string;
  /** One sentence saying what the chart shows, for everyone and for screen readers. */
  summary: string;
  /** YYYY-MM-DD, UTC, oldest first. */
  days: readonly string[];
  /** One or two series; the second is drawn dashed, so they differ by more than colour. */
  series: readonly ChartSeries[];
}

/** "3 May": a UTC day as people read it. */
export function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}

const chartHeight = 200;

/** The theme's colours, read from its custom properties, so the chart follows light and dark. */
function themeColours(element: Element) {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--color-text-muted', '#6a5546'),
    grid: read('--color-border', '#e6d9cb'),
    first: read('--color-accent', '#b23f0c'),
    second: read('--color-text-muted', '#6a5546'),
    font: `12px ${read('--font-sans', 'system-ui, sans-serif')}`,
  };
}

function chartOptions(element: HTMLElement, series: readonly ChartSeries[]): uPlot.Options {
  const colours = themeColours(element);
  const axis: uPlot.Axis = {
    stroke: colours.text,
    font: colours.font,
    grid: { stroke: colours.grid, width: 1 },
    ticks: { stroke: colours.grid, width: 1 },
  };
  return {
    width: Math.max(element.clientWidth, 200),
    height: chartHeight,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    // Days are UTC days, whatever the reader's time zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max, 4)] } },
    axes: [
      { ...axis, values: (_u, splits) => splits.map((ts) => dayLabel(isoDay(ts))) },
      { ...axis, size: 44, values: (_u, splits) => splits.map((value) => wholeNumber(value)) },
    ],
    series: [
      {},
      ...series.map((entry, index) => ({
        label: entry.label,
        stroke: index === 0 ? colours.first : colours.second,
        width: 2,
        points: { show: false },
        ...(index === 0 ? {} : { dash: [6, 4] }),
      })),
    ],
  };
}

function isoDay(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

function wholeNumber(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-GB') : '';
}

/**
 * A line chart of daily counts drawn with uPlot, with its text alternatives: a summary sentence and the
 * figures as a table, shown on request. It redraws when the theme changes and resizes with its box.
 */
export function ActivityChart({ title, summary, days, series }: ActivityChartProps) {
  const titleId = useId();
  const plotRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = plotRef.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000),
      ...series.map((entry) => [...entry.values]),
    ];
    let plot = new uPlot(chartOptions(element, series), data, element);
    const redraw = () => {
      plot.destroy();
      plot = new uPlot(chartOptions(element, series), data, element);
    };
    const resize = new ResizeObserver(() => {
      const width = Math.max(element.clientWidth, 200);
      if (width !== plot.width) plot.setSize({ width, height: chartHeight });
    });
    resize.observe(element);
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', redraw);
    return () => {
      scheme.removeEventListener('change', redraw);
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series]);

  return (
    <section className="chart" aria-labelledby={titleId}>
      <h3 className="chart__title" id={titleId}>
        {title}
      </h3>
      <p className="chart__summary">{summary}</p>
      {/* The drawing repeats the summary and the table, which screen readers get instead. */}
      <div className="chart__plot" ref={plotRef} aria-hidden="true" />
      {series.length > 1 ? (
        <ul className="chart__legend" aria-hidden="true">
          {series.map((entry, index) => (
            <li className="chart__key" key={entry.label}>
              <span className={`chart__swatch chart__swatch--${String(index + 1)}`} />
              {entry.label}
            </li>
          ))}
        </ul>
      ) : null}
      <details className="chart__figures">
        <summary>Show the figures</summary>
        {/* A table wider than a phone scrolls sideways; its box must take focus to scroll by keyboard. */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
        <div className="table-scroll" role="region" aria-label={`${title}: figures`} tabIndex={0}>
          <table className="admin-table">
            <caption>{title}, per UTC day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((entry) => (
                  <th scope="col" key={entry.label} className="admin-table__number">
                    {entry.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, index) => (
                <tr key={day}>
                  <th scope="row">{dayLabel(day)}</th>
                  {series.map((entry) => (
                    <td key={entry.label} className="admin-table__number">
                      {(entry.values[index] ?? 0).toLocaleString('en-GB')}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
