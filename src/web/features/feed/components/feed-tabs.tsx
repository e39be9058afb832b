import type { FeedTab } from '@shared/schemas/post.js';
import { TabList } from '@web/components/ui/tab-list.js';

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
  return (
    <TabList
      options={options.map((option) => ({ value: option.tab, label: option.label }))}
      selected={selected}
      onSelect={onSelect}
      label="Feeds"
      tabId={tabId}
      panelId={panelId}
    />
  );
}
