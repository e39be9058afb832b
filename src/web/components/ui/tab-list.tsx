import { useRef, type KeyboardEvent } from 'react';

export interface TabOption<T extends string> {
  value: T;
  label: string;
}

interface TabListProps<T extends string> {
  options: readonly TabOption<T>[];
  selected: T;
  onSelect: (value: T) => void;
  /** What the tabs choose between, for screen readers ("Notifications"). */
  label: string;
  /** Ids of the tab elements and of the panel they control. */
  tabId: (value: T) => string;
  panelId: string;
}

/** The tab a key moves to from `index` among `count` tabs, or null for any other key. */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  const last = count - 1;
  switch (key) {
    case 'ArrowRight':
      return index >= last ? 0 : index + 1;
    case 'ArrowLeft':
      return index <= 0 ? last : index - 1;
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/**
 * Tabs in the WAI-ARIA pattern with automatic activation: one tab stop; arrow keys, Home and End move
 * between the tabs and show each at once. Styled as the feed's tabs.
 */
export function TabList<T extends string>({
  options,
  selected,
  onSelect,
  label,
  tabId,
  panelId,
}: TabListProps<T>) {
  const buttons = useRef(new Map<T, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = options.findIndex((option) => option.value === selected);
    const target = tabKeyTarget(event.key, index, options.length);
    const option = target === null ? undefined : options[target];
    if (!option) return;
    event.preventDefault();
    onSelect(option.value);
    buttons.current.get(option.value)?.focus();
  };

  return (
    <div className="feed-tabs" role="tablist" aria-label={label}>
      {options.map((option) => {
        const isSelected = option.value === selected;
        return (
          <button
            key={option.value}
            ref={(element) => {
              if (element) buttons.current.set(option.value, element);
              else buttons.current.delete(option.value);
            }}
            type="button"
            role="tab"
            id={tabId(option.value)}
            className="feed-tabs__tab"
            aria-selected={isSelected}
            aria-controls={panelId}
            tabIndex={isSelected ? 0 : -1}
            onKeyDown={onKeyDown}
            onClick={() => {
              onSelect(option.value);
            }}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
