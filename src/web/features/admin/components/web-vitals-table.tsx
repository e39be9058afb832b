import { useId } from 'react';
import {
  webVitalMetrics,
  webVitalThresholds,
  type WebVitalMetric,
  type WebVitalRating,
  type WebVitalSummary,
  type WebVitalsReport,
} from '@shared/schemas/dashboard.js';

/** "2.5 s", "180 ms" or "0.05": a metric's value as people read it. */
export function formatVital(metric: WebVitalMetric, value: number): string {
  if (webVitalThresholds[metric].unit === 'score') return String(Math.round(value * 1000) / 1000);
  if (value >= 1000) return `${(Math.round(value / 100) / 10).toLocaleString('en-GB')} s`;
  return `${String(Math.round(value))} ms`;
}

export const ratingLabels: Record<WebVitalRating, string> = {
  good: 'Good',
  'needs-improvement': 'Needs improvement',
  poor: 'Poor',
};

const metricNames: Record<WebVitalMetric, string> = {
  LCP: 'Largest contentful paint',
  INP: 'Interaction to next paint',
  CLS: 'Cumulative layout shift',
  FCP: 'First contentful paint',
  TTFB: 'Time to first byte',
};

/** A tick, a dash or a cross: the rating is in the words beside it too, never in colour alone. */
function RatingIcon({ rating }: { rating: WebVitalRating }) {
  return (
    <svg
      className="vital__icon"
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <circle cx="8" cy="8" r="7" />
      {rating === 'good' ? <path d="m5 8.5 2 2 4-4.5" /> : null}
      {rating === 'needs-improvement' ? <path d="M5 8h6" /> : null}
      {rating === 'poor' ? <path d="m5.5 5.5 5 5m0-5-5 5" /> : null}
    </svg>
  );
}

function VitalCell({ summary }: { summary: WebVitalSummary | undefined }) {
  if (!summary) {
    return (
      <td>
        <span aria-hidden="true">–</span>
        <span className="visually-hidden">No samples</span>
      </td>
    );
  }
  return (
    <td>
      <span className={`vital vital--${summary.rating}`}>
        <span className="vital__value">{formatVital(summary.metric, summary.p75)}</span>
        <span className="vital__rating">
          <RatingIcon rating={summary.rating} />
          {ratingLabels[summary.rating]}
        </span>
        <span className="vital__samples">
          {summary.samples.toLocaleString('en-GB')} {summary.samples === 1 ? 'sample' : 'samples'}
        </span>
      </span>
    </td>
  );
}

/** Per page, each metric's 75th percentile over the last days, rated against the "good" thresholds. */
export function WebVitalsTable({ report }: { report: WebVitalsReport }) {
  const captionId = useId();
  return (
    <>
      <p className="chart__summary">
        The 75th percentile of each measurement over the last {report.days} days, for page loads
        that sent a report. Good is at most{' '}
        {webVitalMetrics
          .map((metric) => `${metric} ${formatVital(metric, webVitalThresholds[metric].good)}`)
          .join(', ')}
        ; poor is over{' '}
        {webVitalMetrics
          .map((metric) => `${metric} ${formatVital(metric, webVitalThresholds[metric].poor)}`)
          .join(', ')}
        .
      </p>
      {/* A table wider than a phone scrolls sideways; its box must take focus to scroll by keyboard. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="admin-table">
          <caption id={captionId}>Page performance by page, last {report.days} days</caption>
          <thead>
            <tr>
              <th scope="col">Page</th>
              {webVitalMetrics.map((metric) => (
                <th scope="col" key={metric}>
                  <abbr title={metricNames[metric]}>{metric}</abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.pages.map((page) => (
              <tr key={page.page}>
                <th scope="row">
                  <code>{page.page === '*' ? 'Other pages' : page.page}</code>
                </th>
                {webVitalMetrics.map((metric) => (
                  <VitalCell
                    key={metric}
                    summary={page.metrics.find((entry) => entry.metric === metric)}
                  />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
