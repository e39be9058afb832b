import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { displayNameOf } from '@shared/display-name.js';
import type { Author } from '@shared/schemas/post.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { applyMention, findMentionToken, type MentionToken } from './mention-token.js';
import { useMentionPeople } from './search-people.js';

/** Typing pauses this long before people are searched for, so a fast typist sends one request. */
export const mentionSearchDelayMs = 150;

interface MentionTypeaheadOptions {
  /** Replaces the field's whole text (the form's own setter); the caret is then put after the name. */
  setText: (text: string) => void;
}

/** The textarea's share of the combobox: its ARIA attributes and the events the typeahead needs. */
export interface MentionFieldProps {
  'aria-autocomplete': 'list';
  'aria-haspopup': 'listbox';
  'aria-controls': string | undefined;
  'aria-activedescendant': string | undefined;
  /** The caret or selection may have moved: all three (see the handlers). */
  onSelect: (event: { currentTarget: HTMLTextAreaElement }) => void;
  onKeyUp: (event: { currentTarget: HTMLTextAreaElement }) => void;
  onMouseUp: (event: { currentTarget: HTMLTextAreaElement }) => void;
  onFocus: (event: { currentTarget: HTMLTextAreaElement }) => void;
  onBlur: () => void;
}

export interface MentionTypeahead {
  fieldProps: MentionFieldProps;
  /** Call from the field's change handler with the textarea: the caret may now be in a mention. */
  update: (field: HTMLTextAreaElement) => void;
  /**
   * Call first in the field's keydown handler. Returns true when the key was the typeahead's (it moved,
   * picked or closed), and the form must not act on it too.
   */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** Whether the list is showing: Enter then picks rather than anything else. */
  open: boolean;
  /** The list, placed right after the textarea. */
  popup: ReactNode;
}

/** Whether a person's username or one of their names starts with `query`. */
function matches(person: Author, query: string): boolean {
  const prefix = query.toLowerCase();
  return [person.username, person.firstName, person.lastName, person.displayName].some((name) =>
    name?.toLowerCase().startsWith(prefix),
  );
}

/**
 * `@` in a textarea opens a list of people to mention (issue: notifications, search and the everyday
 * things §4), in the ARIA combobox pattern as a textarea can carry it: the field keeps focus and names
 * the active option with aria-activedescendant; ArrowUp and ArrowDown move, Enter or Tab picks,
 * Escape closes. A textarea may not take role="combobox" nor aria-expanded (ARIA in HTML), so the list's
 * presence is announced through aria-controls and a polite count instead.
 */
export function useMentionTypeahead({ setText }: MentionTypeaheadOptions): MentionTypeahead {
  const listboxId = useId();
  const [token, setToken] = useState<MentionToken | null>(null);
  const [focused, setFocused] = useState(false);
  // Escape closes the list for the mention it was pressed in; a new @ opens it again.
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [query, setQuery] = useState('');
  const field = useRef<HTMLTextAreaElement | null>(null);
  const [placeCaret, setPlaceCaret] = useState<{ caret: number } | null>(null);

  const wanted = token && dismissedAt !== token.start ? token.query : '';
  useEffect(() => {
    if (wanted === '') return;
    const timer = setTimeout(() => {
      setQuery(wanted);
    }, mentionSearchDelayMs);
    return () => {
      clearTimeout(timer);
    };
  }, [wanted]);

  // The name searched for: the one typed, once typing has paused on it.
  const asked = wanted === '' ? '' : query;
  const search = useMentionPeople(asked);
  const settled = asked === wanted && !search.isPlaceholderData;
  const people = (search.data ?? []).filter((person) => settled || matches(person, wanted));
  const open = focused && wanted !== '';
  const searching = !settled || search.isPending;
  const activeIndex = Math.min(active, Math.max(0, people.length - 1));
  const activePerson = open ? people[activeIndex] : undefined;
  const optionId = (person: Author) => `${listboxId}-${person.uid}`;

  useLayoutEffect(() => {
    if (!placeCaret) return;
    const element = field.current;
    element?.focus();
    element?.setSelectionRange(placeCaret.caret, placeCaret.caret);
  }, [placeCaret]);

  const update = (element: HTMLTextAreaElement) => {
    field.current = element;
    const next =
      element.selectionStart === element.selectionEnd
        ? findMentionToken(element.value, element.selectionStart)
        : null;
    setToken((current) =>
      current?.start === next?.start && current?.end === next?.end && current?.query === next?.query
        ? current
        : next,
    );
    if (next?.query !== token?.query) setActive(0);
    if (dismissedAt !== null && next?.start !== dismissedAt) setDismissedAt(null);
  };

  const pick = (person: Author) => {
    const element = field.current;
    if (!element || !person.username) return;
    const current = findMentionToken(element.value, element.selectionStart) ?? token;
    if (!current) return;
    const next = applyMention(element.value, current, person.username);
    setText(next.text);
    setToken(null);
    setActive(0);
    setPlaceCaret({ caret: next.caret });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || event.nativeEvent.isComposing) return false;
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
    if (event.key === 'Escape') {
      event.preventDefault();
      setDismissedAt(token?.start ?? null);
      return true;
    }
    if (people.length === 0 || !plain) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + people.length) % people.length);
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || (event.key === 'Tab' && !event.shiftKey)) {
      const person = people[activeIndex];
      if (!person) return false;
      event.preventDefault();
      pick(person);
      return true;
    }
    return false;
  };

  const showList = open && people.length > 0;
  const spoken =
    !open || searching
      ? ''
      : people.length === 0
        ? 'No one found.'
        : `${String(people.length)} ${people.length === 1 ? 'person' : 'people'} found. Up and down arrows to choose, Enter to mention.`;
  const popup = (
    <>
      {open ? (
        <div className="mention-typeahead">
          {showList ? (
            <ul
              className="mention-typeahead__list"
              role="listbox"
              id={listboxId}
              aria-label="People to mention"
            >
              {people.map((person, index) => (
                // Keys are the field's (aria-activedescendant); the pointer picks with a click.
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                <li
                  key={person.uid}
                  id={optionId(person)}
                  role="option"
                  aria-selected={index === activeIndex}
                  className={`mention-option${index === activeIndex ? ' mention-option--active' : ''}`}
                  // The field keeps focus (and its caret) while the pointer picks.
                  onMouseDown={(event) => {
                    event.preventDefault();
                  }}
                  onClick={() => {
                    pick(person);
                  }}
                >
                  <Avatar user={person} alt="" size="sm" className="mention-option__avatar" />
                  <span className="mention-option__name">{displayNameOf(person)}</span>
                  <span className="mention-option__handle">@{person.username}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mention-typeahead__state">
              {search.isError && settled
                ? 'Couldn’t look people up just now.'
                : searching
                  ? 'Looking for people…'
                  : 'No one found'}
            </p>
          )}
        </div>
      ) : null}
      <span className="visually-hidden" aria-live="polite">
        {spoken}
      </span>
    </>
  );

  return {
    fieldProps: {
      'aria-autocomplete': 'list',
      'aria-haspopup': 'listbox',
      'aria-controls': showList ? listboxId : undefined,
      'aria-activedescendant': showList && activePerson ? optionId(activePerson) : undefined,
      // React's onSelect fires on every caret move; under Preact (scripts/react-to-preact.ts) it is the
      // DOM's select event, fired only when text gets selected. Key and mouse releases catch the moves it
      // misses (arrows, Home/End, a click into the text), as React's own plugin does; update() is
      // harmless when nothing moved.
      onSelect: (event) => {
        update(event.currentTarget);
      },
      onKeyUp: (event) => {
        update(event.currentTarget);
      },
      onMouseUp: (event) => {
        update(event.currentTarget);
      },
      onFocus: (event) => {
        field.current = event.currentTarget;
        setFocused(true);
      },
      onBlur: () => {
        setFocused(false);
      },
    },
    update,
    onKeyDown,
    open: showList,
    popup,
  };
}
