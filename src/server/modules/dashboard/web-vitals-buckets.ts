import {
  rateWebVital,
  webVitalThresholds,
  type WebVitalMetric,
  type WebVitalSummary,
} from '../../../shared/schemas/dashboard.js';

/**
 * Fixed log-scale histogram buckets for page-performance values. Each metric is counted in a base unit
 * (a millisecond for times, a ten-thousandth for CLS); bucket 0 holds values up to one unit, bucket `i`
 * values over 2^((i-1)/4) and up to 2^(i/4) units: four buckets per doubling, so an estimate read from
 * them is within about 9 % of the true value. Values past the last bucket are counted in it.
 */
export const bucketsPerDoubling = 4;

const baseUnit: Record<WebVitalMetric, number> = {
  LCP: 1,
  INP: 1,
  CLS: 0.0001,
  FCP: 1,
  TTFB: 1,
};

/** The highest bucket of a metric: the one holding its largest accepted value. */
export function lastBucket(metric: WebVitalMetric): number {
  return Math.ceil(
    bucketsPerDoubling * Math.log2(webVitalThresholds[metric].max / baseUnit[metric]),
  );
}

/** The bucket a value is counted in. */
export function bucketOf(metric: WebVitalMetric, value: number): number {
  const units = value / baseUnit[metric];
  if (!(units > 1)) return 0;
  // The small epsilon keeps exact powers of two in their own bucket despite floating-point error.
  const bucket = Math.ceil(bucketsPerDoubling * Math.log2(units) - 1e-9);
  return Math.min(Math.max(bucket, 1), lastBucket(metric));
}

/** The upper bound of a bucket, in the metric's own unit. */
export function bucketUpperBound(metric: WebVitalMetric, bucket: number): number {
  return 2 ** (bucket / bucketsPerDoubling) * baseUnit[metric];
}

/** The lower bound of a bucket (0 for the first). */
export function bucketLowerBound(metric: WebVitalMetric, bucket: number): number {
  return bucket <= 0 ? 0 : bucketUpperBound(metric, bucket - 1);
}

/**
 * A quantile (0 to 1) estimated from a histogram: the bucket that holds it is found by counting, and the
 * value interpolated within it on the log scale (linearly in the first bucket, which starts at zero).
 * Null for an empty histogram.
 */
export function quantile(
  metric: WebVitalMetric,
  counts: ReadonlyMap<number, number>,
  q: number,
): number | null {
  const buckets = [...counts.entries()].filter(([, count]) => count > 0).sort(([a], [b]) => a - b);
  const total = buckets.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (const [bucket, count] of buckets) {
    if (below + count >= rank) {
      const fraction = Math.min(Math.max((rank - below) / count, 0), 1);
      const lower = bucketLowerBound(metric, bucket);
      const upper = bucketUpperBound(metric, bucket);
      return lower === 0 ? upper * fraction : lower * (upper / lower) ** fraction;
    }
    below += count;
  }
  return bucketUpperBound(metric, buckets[buckets.length - 1]?.[0] ?? 0);
}

/** The 75th percentile of a metric's histogram, its rating and sample count; null when empty. */
export function summarise(
  metric: WebVitalMetric,
  counts: ReadonlyMap<number, number>,
): WebVitalSummary | null {
  const p75 = quantile(metric, counts, 0.75);
  if (p75 === null) return null;
  const samples = [...counts.values()].reduce((sum, count) => sum + count, 0);
  // Whole milliseconds, or CLS to three decimals: finer than that is noise from the buckets.
  const rounded =
    webVitalThresholds[metric].unit === 'ms' ? Math.round(p75) : Math.round(p75 * 1000) / 1000;
  return { metric, p75: rounded, rating: rateWebVital(metric, rounded), samples };
}
