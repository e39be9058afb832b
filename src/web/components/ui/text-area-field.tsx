import { useId, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';
import type { TextCounter } from '@web/lib/text-counter.js';
import { CharacterCount } from './character-count.js';

interface TextAreaFieldProps extends Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id' | 'name'
> {
  name: string;
  label: string;
  hint?: string;
  error?: string | undefined;
  /** A live "n / max" counter under the field. */
  counter?: TextCounter;
  ref?: Ref<HTMLTextAreaElement>;
  /** Placed right after the textarea, before the counter: a popup that belongs to it (a typeahead). */
  after?: ReactNode;
}

/** A labelled textarea whose hint, counter and error are announced with it (aria-describedby). */
export function TextAreaField({
  name,
  label,
  hint,
  error,
  counter,
  ref,
  after,
  className,
  rows = 4,
  ...textareaProps
}: TextAreaFieldProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const counterId = counter ? `${id}-counter` : undefined;
  const describedBy = [errorId, hintId, counterId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', error ? 'field--invalid' : '', className ?? ''].join(' ').trim()}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <textarea
        {...textareaProps}
        ref={ref}
        id={inputId}
        name={name}
        rows={rows}
        className="field__input field__input--multiline"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {after}
      {counter && counterId ? <CharacterCount id={counterId} counter={counter} /> : null}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
