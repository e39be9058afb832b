import { useId, type InputHTMLAttributes, type Ref } from 'react';

interface CheckboxFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'name' | 'type'
> {
  name: string;
  label: string;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A checkbox with its label beside it and an optional hint read with it. */
export function CheckboxField({
  name,
  label,
  hint,
  ref,
  className,
  ...inputProps
}: CheckboxFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={['checkbox-field', className ?? ''].join(' ').trim()}>
      <input
        {...inputProps}
        ref={ref}
        id={`${id}-input`}
        name={name}
        type="checkbox"
        className="checkbox-field__input"
        aria-describedby={hintId}
      />
      <div className="checkbox-field__text">
        <label className="checkbox-field__label" htmlFor={`${id}-input`}>
          {label}
        </label>
        {hint ? (
          <p className="field__hint" id={hintId}>
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
