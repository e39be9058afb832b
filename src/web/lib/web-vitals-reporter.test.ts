// @vitest-environment jsdom
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { webVitalPages, webVitalsBatchSchema } from '@shared/schemas/dashboard.js';
import { createAppRouter } from '@web/app/router.js';
import { pagePattern, toEntry, VitalsQueue } from './web-vitals-reporter.js';

/** Every route of the app as the list of paths from the root down to it. */
function routePaths(routes: readonly RouteObject[], above: (string | undefined)[] = []) {
  const found: (string | undefined)[][] = [];
  for (const route of routes) {
    const paths = [...above, route.path];
    if (route.index || route.path !== undefined) found.push(paths);
    if (route.children) found.push(...routePaths(route.children, paths));
  }
  return found;
}

describe('the web-vitals reporter', () => {
  it('names each page of the app by a pattern the server keeps', () => {
    const router = createAppRouter();
    const patterns = new Map<string, string>();
    for (const paths of routePaths(router.routes)) {
      patterns.set(paths.filter(Boolean).join('/'), pagePattern(paths));
    }
    router.dispose();
    for (const [route, page] of patterns) {
      expect(webVitalPages, route).toContain(page);
      // Only the not-found route and the redirect to the profile editor are "other pages".
      if (page === '*') expect(['*', 'settings/profile']).toContain(route);
    }
    expect(patterns.get('post/:postId')).toBe('/post/:postId');
    expect(patterns.get(':username/followers')).toBe('/:username/followers');
    expect(patterns.get('admin/users/:uid')).toBe('/admin/*');
    expect(patterns.get('admin')).toBe('/admin/*');
    expect(patterns.get('feed')).toBe('/feed');
    expect(pagePattern([undefined, undefined])).toBe('/');
    expect(pagePattern([undefined, 'no/such/:page'])).toBe('*');
  });

  it('rounds and bounds values to what the server takes', () => {
    expect(toEntry('/', 'LCP', 1234.56)).toEqual({ page: '/', metric: 'LCP', value: 1235 });
    expect(toEntry('/', 'CLS', 0.123456)).toEqual({ page: '/', metric: 'CLS', value: 0.1235 });
    expect(toEntry('/', 'TTFB', 10_000_000).value).toBe(120_000);
    expect(toEntry('/', 'INP', -3).value).toBe(0);
  });

  it('counts each measurement once and sends batches the server accepts', () => {
    const sent: string[] = [];
    const queue = new VitalsQueue((body) => sent.push(body));
    queue.flush();
    expect(sent).toHaveLength(0);
    for (let index = 0; index < 45; index += 1) {
      queue.add(`v-${String(index)}`, toEntry('/search', 'INP', index));
    }
    // A metric reported again (a later, larger CLS) is not counted twice.
    queue.add('v-0', toEntry('/search', 'INP', 999));
    queue.flush();
    expect(sent).toHaveLength(3);
    const batches = sent.map((body) => webVitalsBatchSchema.parse(JSON.parse(body)));
    expect(batches.map((batch) => batch.entries.length)).toEqual([20, 20, 5]);
    expect(batches[0]?.entries[0]).toEqual({ page: '/search', metric: 'INP', value: 0 });
    queue.flush();
    expect(sent).toHaveLength(3);
  });
});
