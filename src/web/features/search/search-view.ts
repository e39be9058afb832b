import { searchTextSchema } from '@shared/schemas/search.js';

export type SearchTab = 'people' | 'posts';

/** What the search page shows, read from its address: `?q=` and `?tab=posts` (People is the default). */
export interface SearchView {
  /** The text as typed (the address keeps it untrimmed while typing). */
  text: string;
  tab: SearchTab;
}

export function searchViewOf(params: URLSearchParams): SearchView {
  return {
    text: params.get('q') ?? '',
    tab: params.get('tab') === 'posts' ? 'posts' : 'people',
  };
}

/** The address's query string for a view: empty parts are left out. */
export function searchSearch(view: SearchView): string {
  const params = new URLSearchParams();
  if (view.text !== '') params.set('q', view.text);
  if (view.tab === 'posts') params.set('tab', 'posts');
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** What to search for: the trimmed text, nothing (empty: show the day's tags), or why not. */
export type SearchInput =
  { kind: 'empty' } | { kind: 'query'; q: string } | { kind: 'invalid'; message: string };

/** The server's own rule (searchTextSchema), so no request is sent that can only be refused. */
export function searchInputOf(text: string): SearchInput {
  if (text.trim() === '') return { kind: 'empty' };
  const parsed = searchTextSchema.safeParse(text);
  if (parsed.success) return { kind: 'query', q: parsed.data };
  return {
    kind: 'invalid',
    message: parsed.error.issues[0]?.message ?? 'Type something to search for.',
  };
}
