import { loadChunk } from './chunk-loader.js';

/**
 * A part of the app that only some readers use (a menu, a dialog, a form), loaded once on first use
 * through loadChunk. A failed load is forgotten, so the next use tries again.
 */
export function onDemand<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () => {
    loading ??= loadChunk(load).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/** Warms a part up when the reader is about to open it (pointer over, or focus on, its control). */
export function preload(load: () => Promise<unknown>): void {
  load().catch(() => undefined);
}
