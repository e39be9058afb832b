import { lazy } from 'react';
import { onDemand } from '@web/lib/on-demand.js';

/*
 * Parts that only some readers use, loaded on first use so the feed's first download stays small:
 * the composer and the edit form (react-hook-form; visitors never write), the image viewer, the
 * edit history, who liked, and the deletion's confirmation.
 */

export const loadImageViewer = onDemand(() => import('./image-viewer.js'));
export const loadVersionsDialog = onDemand(() => import('./versions-dialog.js'));
export const loadLikersDialog = onDemand(() => import('./likers-dialog.js'));
export const loadPostComposer = onDemand(() => import('./post-composer.js'));
export const loadPostEditForm = onDemand(() => import('./post-edit-form.js'));
export const loadDeletePostDialog = onDemand(() => import('./delete-post-dialog.js'));

export const ImageViewer = lazy(() =>
  loadImageViewer().then((module) => ({ default: module.ImageViewer })),
);
export const VersionsDialog = lazy(() =>
  loadVersionsDialog().then((module) => ({ default: module.VersionsDialog })),
);
export const LikersDialog = lazy(() =>
  loadLikersDialog().then((module) => ({ default: module.LikersDialog })),
);
export const PostComposer = lazy(() =>
  loadPostComposer().then((module) => ({ default: module.PostComposer })),
);
export const PostEditForm = lazy(() =>
  loadPostEditForm().then((module) => ({ default: module.PostEditForm })),
);
export const DeletePostDialog = lazy(() =>
  loadDeletePostDialog().then((module) => ({ default: module.DeletePostDialog })),
);
