import { useState, type KeyboardEvent } from 'react';
import type { PostImage } from '@shared/schemas/post.js';
import { ModalDialog } from '@web/components/ui/modal-dialog.js';

interface ImageViewerProps {
  images: readonly PostImage[];
  startAt: number;
  /** Whose images they are, for the dialog's name. */
  authorName: string;
  /** Tells which image is showing, so focus can return to its button. */
  onShow?: (index: number) => void;
  returnFocus?: () => HTMLElement | null;
  onClose: () => void;
}

/**
 * The full-size viewer of a post's images (issue: posts §2): a modal with the picture, its
 * description, previous and next (buttons and the arrow keys), and Close (button and Escape).
 */
export function ImageViewer({
  images,
  startAt,
  authorName,
  onShow,
  returnFocus,
  onClose,
}: ImageViewerProps) {
  const [index, setIndex] = useState(startAt);
  const count = images.length;
  const image = images[index];
  if (!image) return null;
  const go = (step: number) => {
    const next = (index + step + count) % count;
    setIndex(next);
    onShow?.(next);
  };
  const position = count > 1 ? `Image ${String(index + 1)} of ${String(count)}` : 'Image';

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (count < 2) return;
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      go(1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      go(-1);
    }
  };

  return (
    <ModalDialog
      title={`${position} from ${authorName}'s post`}
      hideTitle
      onClose={onClose}
      returnFocus={returnFocus}
      className="dialog--viewer"
      onKeyDown={onKeyDown}
    >
      <figure className="viewer">
        <img
          key={image.id}
          className="viewer__image"
          src={image.fullUrl}
          alt={image.alt ?? ''}
          width={image.width}
          height={image.height}
        />
        <figcaption className="viewer__caption">
          {count > 1 ? (
            <span className="viewer__position" aria-live="polite">
              {position}
            </span>
          ) : null}
          {image.alt ? (
            <span className="viewer__alt">{image.alt}</span>
          ) : (
            <span className="viewer__alt viewer__alt--missing">No description</span>
          )}
        </figcaption>
      </figure>
      {count > 1 ? (
        <div className="viewer__nav">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              go(-1);
            }}
          >
            <span aria-hidden="true">←</span> Previous
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              go(1);
            }}
          >
            Next <span aria-hidden="true">→</span>
          </button>
        </div>
      ) : null}
    </ModalDialog>
  );
}
