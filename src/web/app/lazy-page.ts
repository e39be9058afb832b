import type { ComponentType } from 'react';
import { loadChunk } from '@web/lib/chunk-loader.js';

/**
 * spec §2 (pages load on demand) and §9 (chunk timeout, one retry): a route `lazy` that loads a
 * page module through loadChunk and hands its component to the router.
 */
export function lazyPage<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
): () => Promise<{ Component: ComponentType }> {
  return async () => ({ Component: pick(await loadChunk(load)) });
}
