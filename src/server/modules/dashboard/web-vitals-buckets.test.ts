import { describe, expect, it } from 'vitest';
import { rateWebVital, webVitalMetrics } from '../../../shared/schemas/dashboard.js';
import { seededRandom } from '../../test/random.js';
import {
  bucketLowerBound,
  bucketOf,
  bucketUpperBound,
  lastBucket,
  quantile,
  summarise,
} from './web-vitals-buckets.js';

function histogram(metric: (typeof webVitalMetrics)[number], values: number[]) {
  const counts = new Map<number, number>();
  for (const value of values) {
    const bucket = bucketOf(metric, value);
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return counts;
}

describe('web-vitals buckets', () => {
  it('puts every value inside its bucket, for every metric', () => {
    for (const metric of webVitalMetrics) {
      const max = metric === 'CLS' ? 100 : 120_000;
      for (const value of [
        0,
        0.00005,
        0.0001,
        0.05,
        0.1,
        1,
        1.5,
        2,
        199,
        200,
        2_500,
        60_000,
        max,
      ]) {
        if (value > max) continue;
        const bucket = bucketOf(metric, value);
        expect(bucket, `${metric} ${String(value)}`).toBeGreaterThanOrEqual(0);
        expect(bucket).toBeLessThanOrEqual(lastBucket(metric));
        expect(value).toBeLessThanOrEqual(bucketUpperBound(metric, bucket) * (1 + 1e-9));
        if (bucket > 0) expect(value).toBeGreaterThan(bucketLowerBound(metric, bucket));
      }
    }
  });

  it('keeps buckets few and fixed', () => {
    expect(bucketOf('LCP', 1)).toBe(0);
    expect(bucketOf('LCP', 2)).toBe(4);
    expect(bucketOf('LCP', 2.01)).toBe(5);
    expect(bucketOf('CLS', 0.0002)).toBe(4);
    for (const metric of webVitalMetrics) expect(lastBucket(metric)).toBeLessThanOrEqual(80);
  });

  it('estimates the 75th percentile within one bucket width of the true value', () => {
    const random = seededRandom(7);
    for (const metric of webVitalMetrics) {
      const scale = metric === 'CLS' ? 0.2 : 3_000;
      const values = Array.from({ length: 2_000 }, () => scale * Math.exp(random.next() * 2 - 1));
      const sorted = [...values].sort((a, b) => a - b);
      const truth = sorted[Math.ceil(0.75 * sorted.length) - 1] ?? 0;
      const estimate = quantile(metric, histogram(metric, values), 0.75) ?? 0;
      // One bucket is a factor of 2^(1/4), about 19 %.
      expect(estimate / truth, metric).toBeGreaterThan(1 / 1.19);
      expect(estimate / truth, metric).toBeLessThan(1.19);
    }
  });

  it('interpolates within a bucket and answers null for no samples', () => {
    expect(quantile('LCP', new Map(), 0.75)).toBeNull();
    // All samples in one bucket: the quantile moves through it on the log scale.
    const bucket = bucketOf('LCP', 1_000);
    const counts = new Map([[bucket, 4]]);
    const low = bucketLowerBound('LCP', bucket);
    const high = bucketUpperBound('LCP', bucket);
    expect(quantile('LCP', counts, 1)).toBeCloseTo(high, 6);
    expect(quantile('LCP', counts, 0.5)).toBeCloseTo(Math.sqrt(low * high), 6);
    // Three fast loads and one slow one: the 75th percentile is the top of the fast ones' bucket.
    const mixed = new Map([
      [bucketOf('LCP', 1_000), 3],
      [bucketOf('LCP', 9_000), 1],
    ]);
    expect(quantile('LCP', mixed, 0.75)).toBeCloseTo(high, 6);
  });

  it('rates against the "good" and "poor" thresholds, and counts samples', () => {
    expect(rateWebVital('LCP', 2_500)).toBe('good');
    expect(rateWebVital('LCP', 2_501)).toBe('needs-improvement');
    expect(rateWebVital('LCP', 4_001)).toBe('poor');
    expect(rateWebVital('INP', 200)).toBe('good');
    expect(rateWebVital('CLS', 0.1)).toBe('good');
    expect(rateWebVital('CLS', 0.2)).toBe('needs-improvement');
    expect(rateWebVital('FCP', 3_500)).toBe('poor');
    expect(rateWebVital('TTFB', 900)).toBe('needs-improvement');
    const summary = summarise('TTFB', histogram('TTFB', [100, 120, 140, 5_000]));
    expect(summary).toMatchObject({ metric: 'TTFB', rating: 'good', samples: 4 });
    expect(summary?.p75).toBeGreaterThanOrEqual(140 / 1.19);
    expect(summary?.p75).toBeLessThanOrEqual(140 * 1.19);
    expect(summarise('CLS', new Map())).toBeNull();
  });
});
