import { lazy } from 'react';
import { loadChunk } from '@web/lib/chunk-loader.js';

/**
 * Parts that only some readers use, loaded on first use so the feed's first download stays small:
 * the composer and the edit form (react-hook-form; visitors never write), the image viewer, the
 * edit history, who liked, and the More menu (Radix).
 */
function onDemand<Module>(load: () => Promise<Module>) {
  let loading: Promise<Module> | undefined;
  return () => {
    loading ??= loadChunk(load).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

export const loadImageViewer = onDemand(() => import('./image-viewer.js'));
export const loadVersionsDialog = onDemand(() => import('./versions-dialog.js'));
export const loadLikersDialog = onDemand(() => import('./likers-dialog.js'));
export const loadPostMenu = onDemand(() => import('./post-menu.js'));
export const loadPostComposer = onDemand(() => import('./post-composer.js'));
export const loadPostEditForm = onDemand(() => import('./post-edit-form.js'));

export const ImageViewer = lazy(() =>
  loadImageViewer().then((module) => ({ default: module.ImageViewer })),
);
export const VersionsDialog = lazy(() =>
  loadVersionsDialog().then((module) => ({ default: module.VersionsDialog })),
);
export const LikersDialog = lazy(() =>
  loadLikersDialog().then((module) => ({ default: module.LikersDialog })),
);
export const PostMenu = lazy(() => loadPostMenu().then((module) => ({ default: module.PostMenu })));
export const PostComposer = lazy(() =>
  loadPostComposer().then((module) => ({ default: module.PostComposer })),
);
export const PostEditForm = lazy(() =>
  loadPostEditForm().then((module) => ({ default: module.PostEditForm })),
);

/** Warms a part up when the reader is about to open it (pointer over, or focus on, its control). */
export function preload(load: () => Promise<unknown>): void {
  load().catch(() => undefined);
}
