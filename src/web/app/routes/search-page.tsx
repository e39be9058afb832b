import { useId, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { TabList, type TabOption } from '@web/components/ui/tab-list.js';
import { PostCard } from '@web/features/posts/components/post-card.js';
import { PostSkeleton } from '@web/features/posts/components/post-skeleton.js';
import { useFeedSignal } from '@web/features/posts/hooks/use-feed-signal.js';
import { useDebouncedValue } from '@web/features/search/hooks/use-debounced-value.js';
import { PeopleResults } from '@web/features/search/components/people-results.js';
import { PostResults } from '@web/features/search/components/post-results.js';
import { SearchField } from '@web/features/search/components/search-field.js';
import { SearchHelp } from '@web/features/search/components/search-help.js';
import { TrendingTags } from '@web/features/search/components/trending-tags.js';
import {
  searchInputOf,
  searchSearch,
  searchViewOf,
  type SearchTab,
} from '@web/features/search/search-view.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { usePostViewer } from '../hooks/use-post-viewer.js';

/** A pause in typing this long sends the search: quick enough to feel live, slow enough to skip keystrokes. */
const typingPauseMs = 150;

const tabs: readonly TabOption<SearchTab>[] = [
  { value: 'people', label: 'People' },
  { value: 'posts', label: 'Posts' },
];

/** Navigation state of the address changes the field makes itself while typing. */
const typedState = { typed: true } as const;

function isTyped(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'typed' in state;
}

function PostsPanel({ q }: { q: string }) {
  const viewer = usePostViewer();
  // Edits, like counts and deletions reach the results as they do the feeds.
  useFeedSignal();
  return (
    <PostResults
      q={q}
      renderPost={(post) => <PostCard post={post} viewer={viewer} />}
      skeleton={
        <>
          <PostSkeleton />
          <PostSkeleton />
        </>
      }
    />
  );
}

/**
 * /search (issue: notifications and search §3): one box; People as you type and Posts by their words,
 * with from:, #tag and "phrases". The text lives in the address (?q=), replaced as it is typed; with no
 * text, the day's tags.
 */
export function SearchPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const id = useId();
  const view = searchViewOf(params);
  const [text, setText] = useState(view.text);
  const [flushed, setFlushed] = useState<string | null>(null);
  const [syncedKey, setSyncedKey] = useState(location.key);
  if (location.key !== syncedKey) {
    setSyncedKey(location.key);
    // Back, forward or a link to /search: the field shows the address; its own changes are already in it.
    if (!isTyped(location.state) && view.text !== text) setText(view.text);
  }
  const settled = useDebouncedValue(text, typingPauseMs);
  const typed = searchInputOf(text);
  // Results follow the text once typing pauses (or at once on Enter); an over-long text shows why instead.
  const input = typed.kind === 'invalid' ? typed : searchInputOf(flushed === text ? text : settled);
  usePageTitle(input.kind === 'query' ? `Search: ${input.q}` : 'Search');

  const go = (next: { text: string; tab: SearchTab }) => {
    void navigate(
      { search: searchSearch(next) },
      { replace: true, preventScrollReset: true, state: typedState },
    );
  };

  const tabId = (tab: SearchTab) => `${id}-tab-${tab}`;
  const panelId = `${id}-panel`;

  return (
    <div className="page page--narrow search-page">
      <header className="page__header">
        <h1>Search</h1>
      </header>
      <SearchField
        value={text}
        error={typed.kind === 'invalid' ? typed.message : null}
        onChange={(value) => {
          setText(value);
          go({ text: value, tab: view.tab });
        }}
        onSubmit={() => {
          setFlushed(text);
        }}
      />
      {input.kind === 'query' ? (
        <>
          <TabList
            options={tabs}
            selected={view.tab}
            label="Search results"
            onSelect={(tab) => {
              go({ text, tab });
            }}
            tabId={tabId}
            panelId={panelId}
          />
          <div
            role="tabpanel"
            id={panelId}
            aria-labelledby={tabId(view.tab)}
            className="feed-panel search-page__panel"
          >
            {view.tab === 'people' ? <PeopleResults q={input.q} /> : <PostsPanel q={input.q} />}
          </div>
          <SearchHelp />
        </>
      ) : input.kind === 'empty' ? (
        <>
          <SearchHelp open />
          <TrendingTags />
        </>
      ) : null}
    </div>
  );
}
