import { useEffect, useMemo, useRef, useState } from 'react';
import { limits } from '@shared/limits.js';
import { checkImageFile, checkImagePixels } from '@web/lib/image-file.js';

/** One image of a post being written. */
export interface ComposerImage {
  key: string;
  file: File;
  /** Object URL previewing the file; null when the file is refused before upload. */
  previewUrl: string | null;
  alt: string;
  /** The client's or the server's objection to the file; such a post is not sent until it goes. */
  error: string | null;
  /** The server's objection to the description. */
  altError: string | null;
}

export interface ComposerImageActions {
  /** Adds chosen files up to the limit; answers a note when some did not fit. */
  add: (files: readonly File[]) => string | null;
  remove: (key: string) => void;
  setAlt: (key: string, alt: string) => void;
  /** Checks a decoded preview against the pixel limit. */
  previewLoaded: (key: string, width: number, height: number) => void;
  /**
   * Puts the server's per-field messages (image0, alt0, …) on their images; answers the key of the
   * first image that got one, or null.
   */
  setServerErrors: (fields: Readonly<Record<string, string>>) => string | null;
  reset: () => void;
}

let nextKey = 0;

/**
 * The images of the composer (issue: posts §1: up to limits.post.maxImages). Object URLs are made
 * and revoked in event handlers, never during render, and whatever is left is revoked on unmount.
 */
export function useComposerImages(): [ComposerImage[], ComposerImageActions] {
  const [images, setImages] = useState<ComposerImage[]>([]);
  const urls = useRef(new Map<string, string>());
  const current = useRef(images);

  useEffect(() => {
    const held = urls.current;
    return () => {
      for (const url of held.values()) URL.revokeObjectURL(url);
      held.clear();
    };
  }, []);

  const actions = useMemo<ComposerImageActions>(() => {
    // Every change starts from the latest list, even two in one event, and keeps `current` in step.
    const update = (change: (list: ComposerImage[]) => ComposerImage[]) => {
      const next = change(current.current);
      current.current = next;
      setImages(next);
      return next;
    };
    const revoke = (key: string) => {
      const url = urls.current.get(key);
      if (url) URL.revokeObjectURL(url);
      urls.current.delete(key);
    };
    return {
      add: (files) => {
        const room = limits.post.maxImages - current.current.length;
        const taken = files.slice(0, Math.max(0, room));
        const added = taken.map((file): ComposerImage => {
          nextKey += 1;
          const key = `image-${String(nextKey)}`;
          const error = checkImageFile(file);
          const previewUrl = error ? null : URL.createObjectURL(file);
          if (previewUrl) urls.current.set(key, previewUrl);
          return { key, file, previewUrl, alt: '', error, altError: null };
        });
        update((list) => [...list, ...added]);
        const left = files.length - taken.length;
        if (left === 0) return null;
        return `A post can have ${String(limits.post.maxImages)} images; ${String(left)} ${left === 1 ? 'was' : 'were'} left out.`;
      },
      remove: (key) => {
        revoke(key);
        update((list) => list.filter((image) => image.key !== key));
      },
      setAlt: (key, alt) => {
        update((list) =>
          list.map((image) => (image.key === key ? { ...image, alt, altError: null } : image)),
        );
      },
      previewLoaded: (key, width, height) => {
        const error = checkImagePixels(width, height);
        if (!error) return;
        revoke(key);
        update((list) =>
          list.map((image) => (image.key === key ? { ...image, previewUrl: null, error } : image)),
        );
      },
      setServerErrors: (fields) => {
        const before = current.current;
        const next = update((list) =>
          list.map((image, index) => {
            const error = fields[`image${String(index)}`];
            const altError = fields[`alt${String(index)}`];
            if (error === undefined && altError === undefined) return image;
            return { ...image, error: error ?? image.error, altError: altError ?? image.altError };
          }),
        );
        return next.find((image, index) => image !== before[index])?.key ?? null;
      },
      reset: () => {
        for (const key of [...urls.current.keys()]) revoke(key);
        update(() => []);
      },
    };
  }, []);

  return [images, actions];
}
