import { useEffect, useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { imageAccept, imageFileHint } from '@web/lib/image-file.js';
import type { ImageChoice, ImageChoiceActions } from '../hooks/use-image-choice.js';

interface ImageFieldProps {
  /** The multipart field the file is sent as. */
  name: 'avatar' | 'cover';
  /** Visible label of the file input ("Avatar", "Cover image"). */
  label: string;
  /** What the image is called in sentences ("avatar", "cover image"). */
  noun: string;
  /** Label of the remove button ("Remove avatar"). */
  removeLabel: string;
  /** Extra words for the hint (the size it is shown at). */
  hint: string;
  /** The saved image, or null when the default is shown. */
  current: string | null;
  /** spec §3: the default image shown when there is none. */
  fallback: string;
  shape: 'round' | 'wide';
  choice: ImageChoice;
  actions: ImageChoiceActions;
  /** Lets the form move focus to the file input when the image is refused. */
  handleRef?: Ref<ImageFieldHandle>;
}

export interface ImageFieldHandle {
  focus: () => void;
}

type FocusTarget = 'input' | 'remove' | 'undo';

/**
 * A file input with a preview of what will be shown after saving: the chosen file (an object URL),
 * the saved image, or the default. "Remove" drops a chosen file, or marks the saved image for
 * removal with an Undo. Focus follows the control that replaces the one just pressed.
 */
export function ImageField({
  name,
  label,
  noun,
  removeLabel,
  hint,
  current,
  fallback,
  shape,
  choice,
  actions,
  handleRef,
}: ImageFieldProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const pendingId = `${id}-pending`;
  const input = useRef<HTMLInputElement>(null);
  useImperativeHandle(handleRef, () => ({ focus: () => input.current?.focus() }), []);
  const removeButton = useRef<HTMLButtonElement>(null);
  const undoButton = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<FocusTarget | null>(null);
  // A preview the browser could not decode; the server reads the bytes and has the last word.
  const [undecodable, setUndecodable] = useState<string | null>(null);

  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    const element = { input, remove: removeButton, undo: undoButton }[target].current;
    element?.focus();
  });

  useEffect(() => {
    // The input's own file list goes when the choice is dropped (Remove, or after saving).
    if (!choice.file && input.current) input.current.value = '';
  }, [choice.file]);

  const showing = choice.previewUrl ?? (choice.remove ? null : current);
  const previewAlt = choice.previewUrl
    ? `Preview of your new ${noun}`
    : showing
      ? `Your current ${noun}`
      : `The default ${noun}`;
  const canRemove = choice.file !== null || (current !== null && !choice.remove);
  const describedBy = [choice.error ? errorId : null, hintId, choice.remove ? pendingId : null]
    .filter(Boolean)
    .join(' ');

  return (
    <div
      className={`field image-field image-field--${shape}${choice.error ? ' field--invalid' : ''}`}
    >
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <p className="field__hint" id={hintId}>
        {imageFileHint} {hint}
      </p>
      <div className="image-field__body">
        {choice.previewUrl && choice.previewUrl === undecodable ? (
          <p className="image-field__preview image-field__preview--none">
            No preview for this file. It is checked when you save.
          </p>
        ) : (
          <img
            className="image-field__preview"
            src={showing ?? fallback}
            alt={previewAlt}
            onLoad={(event) => {
              if (choice.previewUrl && event.currentTarget.src === choice.previewUrl) {
                actions.previewLoaded(
                  event.currentTarget.naturalWidth,
                  event.currentTarget.naturalHeight,
                );
              }
            }}
            onError={() => {
              if (choice.previewUrl) setUndecodable(choice.previewUrl);
            }}
          />
        )}
        <div className="image-field__controls">
          <input
            ref={input}
            id={inputId}
            name={name}
            type="file"
            accept={imageAccept}
            className="image-field__input"
            aria-invalid={choice.error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(event) => {
              actions.choose(event.currentTarget.files?.[0] ?? null);
            }}
          />
          {canRemove ? (
            <button
              ref={removeButton}
              type="button"
              className="button button--secondary button--small"
              onClick={() => {
                if (choice.file) {
                  focusNext.current = current && !choice.remove ? 'remove' : 'input';
                  actions.clear();
                } else {
                  focusNext.current = 'undo';
                  actions.markRemoved();
                }
              }}
            >
              {removeLabel}
            </button>
          ) : null}
        </div>
      </div>
      {choice.remove ? (
        <p className="image-field__pending" id={pendingId}>
          <span>Your {noun} will be removed when you save.</span>
          <button
            ref={undoButton}
            type="button"
            className="button button--ghost button--small"
            onClick={() => {
              focusNext.current = 'remove';
              actions.undoRemove();
            }}
          >
            Undo<span className="visually-hidden"> removing the {noun}</span>
          </button>
        </p>
      ) : null}
      {choice.error ? (
        <p className="field__error" id={errorId}>
          {choice.error}
        </p>
      ) : null}
    </div>
  );
}
