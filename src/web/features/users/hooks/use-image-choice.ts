import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { checkImageFile, checkImagePixels } from '@web/lib/image-file.js';

/** One image slot of the edit form before it is saved. */
export interface ImageChoice {
  /** A newly chosen file, or null. With `error` set it is refused and must be replaced or removed. */
  file: File | null;
  /** Object URL previewing `file`. */
  previewUrl: string | null;
  /** The saved image is marked for removal. */
  remove: boolean;
  /** The client's or the server's objection to the file. */
  error: string | null;
}

export interface ImageChoiceActions {
  choose: (file: File | null) => void;
  /** Drops a chosen file (nothing was saved yet). */
  clear: () => void;
  markRemoved: () => void;
  undoRemove: () => void;
  /** Checks the decoded preview's size against the pixel limit. */
  previewLoaded: (width: number, height: number) => void;
  setError: (message: string | null) => void;
  /** Back to "no change" (after saving). */
  reset: () => void;
}

const unchanged: ImageChoice = { file: null, previewUrl: null, remove: false, error: null };

/**
 * State of an image input. Object URLs are made and revoked in event handlers (not during render or
 * in effects, which StrictMode runs twice), and the last one is revoked on unmount.
 */
export function useImageChoice(): [ImageChoice, ImageChoiceActions] {
  const [choice, setChoice] = useState<ImageChoice>(unchanged);
  const objectUrl = useRef<string | null>(null);

  const replaceUrl = useCallback((next: string | null) => {
    if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    objectUrl.current = next;
  }, []);

  useEffect(() => {
    const held = objectUrl;
    return () => {
      if (held.current) URL.revokeObjectURL(held.current);
      held.current = null;
    };
  }, []);

  const actions = useMemo<ImageChoiceActions>(
    () => ({
      choose: (file) => {
        if (!file) {
          replaceUrl(null);
          setChoice(unchanged);
          return;
        }
        const error = checkImageFile(file);
        const previewUrl = error ? null : URL.createObjectURL(file);
        replaceUrl(previewUrl);
        setChoice({ file, previewUrl, remove: false, error });
      },
      clear: () => {
        replaceUrl(null);
        setChoice(unchanged);
      },
      markRemoved: () => {
        replaceUrl(null);
        setChoice({ ...unchanged, remove: true });
      },
      undoRemove: () => {
        setChoice(unchanged);
      },
      previewLoaded: (width, height) => {
        const error = checkImagePixels(width, height);
        if (!error) return;
        replaceUrl(null);
        setChoice((previous) => ({ ...previous, previewUrl: null, error }));
      },
      setError: (message) => {
        setChoice((previous) => ({ ...previous, error: message }));
      },
      reset: () => {
        replaceUrl(null);
        setChoice(unchanged);
      },
    }),
    [replaceUrl],
  );

  return [choice, actions];
}
