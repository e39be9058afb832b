import { useRef, type KeyboardEvent } from 'react';
import type { FeedTab } from '@shared/schemas/post.js';

export interface FeedTabOption {
  tab: FeedTab;
  label: string;
}

interface FeedTabsProps {
  options: readonly FeedTabOption[];
  selected: FeedTab;
  onSelect: (tab: FeedTab) => void;
  /** Ids of the tab elements and of the panel they control. */
  tabId: (tab: FeedTab) => string;
  panelId: string;
}

/**
 * The feed's tabs (issue: posts §6), the WAI-ARIA tabs pattern with automatic activation: one tab
 * stop, arrow keys (and Home, End) move between tabs and show each at once.
 */
export function FeedTabs({ options, selected, onSelect, tabId, panelId }: FeedTabsProps) {
  const buttons = useRef(new Map<FeedTab, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = options.findIndex((option) => option.tab === selected);
    const last = options.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index <= 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    const option = options[target];
    if (!option) return;
    event.preventDefault();
    onSelect(option.tab);
    buttons.current.get(option.tab)?.focus();
  };

  return (
    <div className="feed-tabs" role="tablist" aria-label="Feeds">
      {options.map((option) => {
        const isSelected = option.tab === selected;
        return (
          <button
            key={option.tab}
            ref={(element) => {
              if (element) buttons.current.set(option.tab, element);
              else buttons.current.delete(option.tab);
            }}
            type="button"
            role="tab"
            id={tabId(option.tab)}
            className="feed-tabs__tab"
            aria-selected={isSelected}
            aria-controls={panelId}
            tabIndex={isSelected ? 0 : -1}
            onKeyDown={onKeyDown}
            onClick={() => {
              onSelect(option.tab);
            }}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
