import { limits } from '@shared/limits.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { imageFileHint } from '@web/lib/image-file.js';
import { textCounter } from '@web/lib/text-counter.js';
import { ImageIcon } from './post-icons.js';

/**
 * The composer's shape while its code loads: the same parts, inert and hidden from assistive technology,
 * so the feed below does not move when the real composer replaces it.
 */
export function ComposerPlaceholder({ user }: { user: UserDocument }) {
  return (
    <section className="card composer" aria-hidden="true" inert>
      <div className="form composer__form">
        <div className="composer__main">
          <Avatar user={user} alt="" size="md" className="composer__avatar" />
          <TextAreaField
            name="body"
            label="Write a post"
            className="composer__text"
            rows={3}
            placeholder="What’s on your mind?"
            counter={textCounter('', limits.post.max)}
            readOnly
          />
        </div>
        <div className="composer__tools">
          <div className="composer__files">
            <span className="button button--ghost composer__file-label">
              <ImageIcon />
              Add images
            </span>
            <p className="field__hint composer__file-hint">
              {`Up to ${String(limits.post.maxImages)} images. ${imageFileHint}`}
            </p>
          </div>
          <span className="button button--primary">Post</span>
        </div>
      </div>
    </section>
  );
}
