import type { ChangeEvent } from 'react';

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter: search now rather than after the pause in typing. */
  onSubmit: () => void;
  /** Why the text cannot be searched for (too long), shown under the field. */
  error: string | null;
}

/** The id the `/` shortcut focuses (issue: notifications and search §1). */
export const searchInputId = 'search-input';

/** The one search box (issue: notifications and search §3): people and posts from the same text. */
export function SearchField({ value, onChange, onSubmit, error }: SearchFieldProps) {
  const hintId = `${searchInputId}-hint`;
  const errorId = `${searchInputId}-error`;
  return (
    <form
      role="search"
      className="search-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <div className={`field search-form__field${error ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor={searchInputId}>
          Search
        </label>
        <input
          id={searchInputId}
          className="field__input search-form__input"
          type="search"
          name="q"
          value={value}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          onChange={(event: ChangeEvent<HTMLInputElement>) => {
            onChange(event.target.value);
          }}
        />
        {error ? (
          <p className="field__error" id={errorId} role="alert">
            {error}
          </p>
        ) : null}
        <p className="field__hint" id={hintId}>
          People by name or @username; posts by their words, with from:username, #tag and
          &quot;exact phrase&quot;.
        </p>
      </div>
    </form>
  );
}
