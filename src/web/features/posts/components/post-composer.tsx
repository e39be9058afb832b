import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { limits } from '@shared/limits.js';
import type { PostView } from '@shared/schemas/post.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { altTextRule, postBodyRule, postError, textRuleError } from '@shared/text-rules.js';
import { useMentionTypeahead } from '@web/components/mention-typeahead/use-mention-typeahead.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { DraftNote } from '@web/components/ui/draft-note.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { LeavePrompt } from '@web/components/ui/leave-prompt.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { ApiError } from '@web/lib/api-client.js';
import { draftText } from '@web/lib/drafts.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { imageAccept, imageFileHint } from '@web/lib/image-file.js';
import {
  submitKeyShortcuts,
  submitOnShortcut,
  submitShortcutLabel,
} from '@web/lib/submit-shortcut.js';
import { textCounter } from '@web/lib/text-counter.js';
import { useDraft } from '@web/lib/use-draft.js';
import { useLeavePrompt } from '@web/lib/use-leave-prompt.js';
import { useCreatePost } from '../api/create-post.js';
import { useComposerImages, type ComposerImage } from '../hooks/use-composer-images.js';
import { ImageIcon } from './post-icons.js';

interface ComposerValues {
  body: string;
}

interface PostComposerProps {
  /** The signed-in, active author. */
  user: UserDocument;
  /** Hears the new post once it is saved (the Write dialog closes on it). */
  onPosted?: (post: PostView) => void;
}

const maxImages = limits.post.maxImages;

/** An unsent post kept on the device: its text, and how many images it had (images are not kept). */
interface PostDraft {
  body: string;
  images: number;
}

const readPostDraft = (value: unknown): PostDraft | null => {
  const body = draftText(value, 'body');
  if (body === null) return null;
  const images: unknown = typeof value === 'object' && value ? Reflect.get(value, 'images') : 0;
  return { body, images: typeof images === 'number' ? images : 0 };
};

/**
 * Issue: posts §1. Write a post of up to limits.post.max characters with up to four images, each with
 * its description (a reminder when it is missing, never a requirement). Everything typed and chosen
 * stays after an error; the new post shows on top of the feed as soon as it is saved.
 */
export function PostComposer({ user, onPosted }: PostComposerProps) {
  const create = useCreatePost();
  const [images, actions] = useComposerImages();
  const [formError, setFormError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [imageNote, setImageNote] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const removeButtons = useRef(new Map<string, HTMLButtonElement>());
  // An image the server refused: its Remove button (which the message describes) takes focus once shown.
  const focusImage = useRef<string | null>(null);
  useEffect(() => {
    const key = focusImage.current;
    if (!key) return;
    focusImage.current = null;
    removeButtons.current.get(key)?.focus();
  });
  const id = useId();
  const fileHintId = `${id}-file-hint`;
  const draft = useDraft({ account: user.uid, target: 'post', read: readPostDraft });
  const [restored, setRestored] = useState(draft.restored);

  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting },
    setValue,
  } = useForm<ComposerValues>({ defaultValues: { body: draft.restored?.value.body ?? '' } });
  const body = useWatch({ control, name: 'body' });
  const typed = body.trim() !== '';
  // Images are not kept in drafts, so leaving with images chosen loses them: the prompt says so.
  const leave = useLeavePrompt({ dirty: typed || images.length > 0, kept: images.length === 0 });
  const typeahead = useMentionTypeahead({
    setText: (text) => {
      setValue('body', text, { shouldDirty: true });
      setStatus(null);
    },
  });
  const { save: saveDraft } = draft;
  // In the render's own task, before the next event: a form emptied and closed at once (Escape right
  // after clearing it) must not leave its unmount to keep the text it held a moment earlier.
  useLayoutEffect(() => {
    saveDraft(typed ? { body, images: images.length } : null);
  }, [saveDraft, body, typed, images.length]);
  const { ref: bodyRef, ...bodyField } = register('body', {
    // Text, images or both (issue: posts §1); the images are the ones chosen at this render.
    validate: (value) => postError(value, images.length) ?? true,
    onChange: (event: { target: HTMLTextAreaElement }) => {
      setStatus(null);
      typeahead.update(event.target);
    },
  });

  const publish = async ({ body: text }: ComposerValues) => {
    setFormError(null);
    setStatus(null);
    // A refused image is never sent: it has to go first (its own message says why).
    const refused = images.find((image) => image.error !== null);
    if (refused) {
      removeButtons.current.get(refused.key)?.focus();
      return;
    }
    const altProblem = images
      .map((image) => textRuleError(image.alt, altTextRule))
      .find((problem) => problem !== null);
    if (altProblem) {
      setFormError(altProblem);
      return;
    }
    try {
      const post = await create.mutateAsync({
        body: text,
        images: images.map((image) => ({ file: image.file, alt: image.alt })),
      });
      draft.clear();
      leave.settle();
      setRestored(null);
      reset({ body: '' });
      actions.reset();
      setImageNote(null);
      setStatus('Your post is published.');
      textarea.current?.focus();
      onPosted?.(post);
    } catch (error) {
      setFormError(showServerErrors(error));
    }
  };

  /** The text's error goes on the textarea, each image's on that image; the rest is the alert. */
  function showServerErrors(error: unknown): string | null {
    if (!(error instanceof ApiError)) return applyServerErrors(error, setError, ['body']);
    const { body: bodyMessage, ...rest } = error.fields;
    const refusedKey = actions.setServerErrors(rest);
    const others = Object.fromEntries(
      Object.entries(rest).filter(([name]) => !/^(image|alt)\d$/.test(name)),
    );
    if (refusedKey && bodyMessage === undefined && Object.keys(others).length === 0) {
      focusImage.current = refusedKey;
      return null;
    }
    return applyServerErrors(
      new ApiError({
        status: error.status,
        code: error.code,
        message: error.message,
        fields: bodyMessage === undefined ? others : { body: bodyMessage, ...others },
      }),
      setError,
      ['body'],
    );
  }

  const full = images.length >= maxImages;
  const shortcut = submitShortcutLabel();

  return (
    <section className="card composer" aria-label="New post">
      <FormShell
        busy={isSubmitting}
        error={formError}
        onSubmit={(event) => handleSubmit(publish)(event)}
        className="form composer__form"
      >
        {leave.hosting ? <LeavePrompt /> : null}
        {restored ? (
          <DraftNote
            savedAt={restored.savedAt}
            imagesDropped={restored.value.images > 0}
            onDiscard={() => {
              draft.clear();
              setRestored(null);
              reset({ body: '' });
              textarea.current?.focus();
            }}
          />
        ) : null}
        <div className="composer__main">
          <Avatar user={user} alt="" size="md" className="composer__avatar" />
          <TextAreaField
            label="Write a post"
            className="composer__text"
            rows={3}
            placeholder="What’s on your mind?"
            counter={textCounter(body, postBodyRule.max)}
            error={errors.body?.message}
            ref={(element) => {
              bodyRef(element);
              textarea.current = element;
            }}
            {...bodyField}
            {...typeahead.fieldProps}
            after={typeahead.popup}
            onBlur={(event) => {
              typeahead.fieldProps.onBlur();
              void bodyField.onBlur(event);
            }}
            onKeyDown={(event) => {
              if (!typeahead.onKeyDown(event)) submitOnShortcut(event, isSubmitting);
            }}
          />
        </div>

        {images.length > 0 ? (
          <ul className="composer__images" aria-label="Images to post">
            {images.map((image, index) => (
              <ComposerImageItem
                key={image.key}
                image={image}
                index={index}
                removeRef={(element) => {
                  if (element) removeButtons.current.set(image.key, element);
                  else removeButtons.current.delete(image.key);
                }}
                onAlt={(alt) => {
                  actions.setAlt(image.key, alt);
                }}
                onLoaded={(width, height) => {
                  actions.previewLoaded(image.key, width, height);
                }}
                onRemove={() => {
                  actions.remove(image.key);
                  setImageNote(null);
                  fileInput.current?.focus();
                }}
              />
            ))}
          </ul>
        ) : null}

        <div className="composer__tools">
          <div className="composer__files">
            <input
              ref={fileInput}
              id={`${id}-files`}
              className="visually-hidden composer__file-input"
              type="file"
              multiple
              accept={imageAccept}
              // aria-disabled keeps focus here after the fourth image; a click then only explains.
              aria-disabled={full || undefined}
              aria-describedby={fileHintId}
              onClick={(event) => {
                if (!full) return;
                event.preventDefault();
                setImageNote(
                  `A post can have ${String(maxImages)} images. Remove one to add another.`,
                );
              }}
              onChange={(event) => {
                const files = Array.from(event.currentTarget.files ?? []);
                event.currentTarget.value = '';
                if (files.length === 0) return;
                setStatus(null);
                setImageNote(actions.add(files));
              }}
            />
            <label htmlFor={`${id}-files`} className="button button--ghost composer__file-label">
              <ImageIcon />
              Add images
            </label>
            <p className="field__hint composer__file-hint" id={fileHintId}>
              {full
                ? `That’s ${String(maxImages)} images, the most a post can have.`
                : `Up to ${String(maxImages)} images. ${imageFileHint}`}
            </p>
          </div>
          <div className="composer__send">
            <p className="submit-hint" aria-hidden="true">
              {shortcut} to post
            </p>
            <SubmitButton
              busy={isSubmitting}
              label="Post"
              busyLabel="Posting…"
              block={false}
              title={`Post (${shortcut})`}
              keyShortcuts={submitKeyShortcuts}
            />
          </div>
        </div>
        {imageNote ? (
          <p className="composer__note" role="status">
            {imageNote}
          </p>
        ) : null}
        <FormStatus
          autoClear={{
            notice: status,
            clear: () => {
              setStatus(null);
            },
          }}
        >
          {status}
        </FormStatus>
      </FormShell>
    </section>
  );
}

interface ComposerImageItemProps {
  image: ComposerImage;
  index: number;
  removeRef: (element: HTMLButtonElement | null) => void;
  onAlt: (alt: string) => void;
  onLoaded: (width: number, height: number) => void;
  onRemove: () => void;
}

/** A chosen image: its preview, Remove, and its description with a gentle reminder while empty. */
function ComposerImageItem({
  image,
  index,
  removeRef,
  onAlt,
  onLoaded,
  onRemove,
}: ComposerImageItemProps) {
  const number = String(index + 1);
  const errorId = useId();
  const missingAlt = image.alt.trim() === '';
  // A file the browser cannot show may still be one the server reads: it has the last word.
  const [undecodable, setUndecodable] = useState(false);
  return (
    <li className={`composer-image${image.error ? ' composer-image--refused' : ''}`}>
      <div className="composer-image__preview">
        {image.previewUrl && !undecodable ? (
          <img
            src={image.previewUrl}
            alt={`Preview ${number}: ${image.file.name}`}
            onLoad={(event) => {
              onLoaded(event.currentTarget.naturalWidth, event.currentTarget.naturalHeight);
            }}
            onError={() => {
              setUndecodable(true);
            }}
          />
        ) : (
          <span className="composer-image__none">
            {image.file.name}
            {image.error ? null : (
              <>
                <br />
                No preview for this file. It is checked when you post.
              </>
            )}
          </span>
        )}
        <button
          ref={removeRef}
          type="button"
          className="button button--secondary button--small composer-image__remove"
          aria-describedby={image.error ? errorId : undefined}
          onClick={onRemove}
        >
          Remove<span className="visually-hidden"> image {number}</span>
        </button>
      </div>
      {image.error ? (
        <p className="field__error" id={errorId}>
          {image.error}
        </p>
      ) : null}
      <TextAreaField
        name={`alt${String(index)}`}
        label={`Alt text for image ${number}`}
        className="composer-image__alt"
        rows={2}
        value={image.alt}
        hint={
          missingAlt
            ? 'No alt text yet. A short description lets people who can’t see the image know what it shows.'
            : undefined
        }
        error={image.altError ?? undefined}
        onChange={(event) => {
          onAlt(event.currentTarget.value);
        }}
      />
    </li>
  );
}
