import { Suspense, useRef, useState } from 'react';
import type { PostImage } from '@shared/schemas/post.js';
import { postImageSizes, srcSetOf } from '@web/lib/image-sources.js';
import { preload } from '@web/lib/on-demand.js';
import { ImageViewer, loadImageViewer } from './lazy-parts.js';

interface PostImagesProps {
  images: readonly PostImage[];
  authorName: string;
  /** The post's own page shows the images larger. */
  large?: boolean;
  /**
   * The page's largest picture near the top (the post page's, the first in a feed): its first image is
   * fetched at once and first, since the page's Largest Contentful Paint waits for it.
   */
  priority?: boolean;
}

/**
 * A post's images in a grid laid out for one to four, each a button that opens the full-size
 * viewer there. Each carries its real size, so nothing jumps as it arrives, and the renditions that
 * exist, so a phone fetches the 600 px one; all but a priority image load lazily.
 */
export function PostImages({
  images,
  authorName,
  large = false,
  priority = false,
}: PostImagesProps) {
  const [open, setOpen] = useState<number | null>(null);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  // Closing the viewer returns focus to the image it showed last, not the one it opened on.
  const returnFocus = useRef<HTMLElement | null>(null);
  const count = images.length;
  if (count === 0) return null;
  return (
    <>
      <div
        className={`post-images post-images--${String(Math.min(count, 4))}${large ? ' post-images--large' : ''}`}
      >
        {images.map((image, index) => {
          const lead = priority && index === 0;
          const srcSet = srcSetOf(image.sources);
          return (
            <button
              key={image.id}
              ref={(element) => {
                buttons.current[index] = element;
              }}
              type="button"
              className="post-images__item"
              aria-haspopup="dialog"
              onPointerEnter={() => {
                preload(loadImageViewer);
              }}
              onFocus={() => {
                preload(loadImageViewer);
              }}
              onClick={() => {
                returnFocus.current = buttons.current[index] ?? null;
                setOpen(index);
              }}
            >
              <img
                className="post-images__image"
                src={image.url}
                alt={image.alt ?? ''}
                srcSet={srcSet}
                sizes={srcSet ? postImageSizes(count) : undefined}
                width={image.width}
                height={image.height}
                loading={lead ? 'eager' : 'lazy'}
                fetchPriority={lead ? 'high' : undefined}
                decoding="async"
              />
              <span className="visually-hidden">
                {image.alt ? ', ' : 'An image without a description, '}
                view full size
                {count > 1 ? ` (image ${String(index + 1)} of ${String(count)})` : ''}
              </span>
            </button>
          );
        })}
      </div>
      {open !== null ? (
        <Suspense fallback={null}>
          <ImageViewer
            images={images}
            startAt={open}
            authorName={authorName}
            returnFocus={() => returnFocus.current}
            onShow={(index) => {
              returnFocus.current = buttons.current[index] ?? null;
            }}
            onClose={() => {
              setOpen(null);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
