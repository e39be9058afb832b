import path from 'node:path';
import type { Plugin } from 'vite';
import {
  routePreloadsFile,
  type PageRoute,
  type RoutePreloads,
} from '../src/shared/route-preloads.js';

/**
 * Writes `route-preloads.json`: for each page the server can name from an address (the feed, a post, a
 * profile), the scripts its route loads on demand, with their own static imports. The server announces
 * them in that page's head as `modulepreload` links (ADR 0034), so they download while the entry script
 * does instead of after it has run and the router has matched the address.
 *
 * `routes` maps a page's name to its route module, relative to the project.
 */
export function routePreloads(root: string, routes: Record<PageRoute, string>): Plugin {
  return {
    name: 'hearth-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { imports: readonly string[]; facade: string | null }>();
      const entryGraph = new Set<string>();
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.set(output.fileName, {
          imports: output.imports,
          facade: output.facadeModuleId,
        });
      }
      /** A chunk and everything it imports statically, in the order a browser would want them. */
      const closure = (fileName: string, into: Set<string>) => {
        if (into.has(fileName)) return;
        into.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) closure(imported, into);
      };
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk' && output.isEntry) closure(output.fileName, entryGraph);
      }
      const preloads: RoutePreloads = {};
      for (const [page, module] of Object.entries(routes) as [PageRoute, string][]) {
        const wanted = path.resolve(root, module);
        const chunk = [...chunks].find(([, { facade }]) => facade === wanted)?.[0];
        if (!chunk) this.error(`no chunk is built from ${module}: is it still a lazy route?`);
        const files = new Set<string>();
        closure(chunk, files);
        // What the entry imports statically is fetched with it already.
        preloads[page] = [...files]
          .filter((file) => !entryGraph.has(file))
          .map((file) => `/${file}`);
      }
      this.emitFile({
        type: 'asset',
        fileName: routePreloadsFile,
        source: `${JSON.stringify(preloads, null, 2)}\n`,
      });
    },
  };
}
