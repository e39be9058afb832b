// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { limits } from '@shared/limits.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { makePostView } from '@web/test/post-fixtures.js';
import { renderRoute, seenRequest, type SeenRequest } from '@web/test/render-route.js';
import { makePeopleResult, makeTrendingTag } from '@web/test/search-fixtures.js';
import { SearchPage } from './search-page.js';

// The page follows the feed topic for live changes; these tests have no socket.
vi.mock('@web/lib/realtime-client.js', () => ({
  realtimeClient: { subscribe: () => () => undefined, getSnapshot: () => undefined },
}));

afterEach(cleanup);

type Answer = (request: SeenRequest) => Promise<Response> | Response | undefined;

/** Answers by path; a request nobody answers is a 404. Returns every request seen, in order. */
function stubApi(answers: Record<string, Answer>) {
  const seen: SeenRequest[] = [];
  stubFetch((input, init) => {
    const request = seenRequest(input, init);
    seen.push(request);
    const answer = answers[request.url.pathname]?.(request);
    return Promise.resolve(answer ?? jsonResponse({ error: { code: 'not_found' } }, 404));
  });
  return seen;
}

const searches = (seen: SeenRequest[], path: string) =>
  seen.filter((request) => request.url.pathname === path);

function renderSearch(url = '/search') {
  return renderRoute({ path: '/search', url, element: <SearchPage /> });
}

describe('SearchPage', () => {
  it('shows the day’s tags and the search tips before anything is typed', async () => {
    const seen = stubApi({
      '/api/tags/trending': () => jsonResponse({ items: [makeTrendingTag()] }),
    });
    renderSearch();
    const tag = await screen.findByRole('link', { name: '#hearth' });
    expect(tag.getAttribute('href')).toBe('/tags/hearth');
    expect(screen.getByText('3 posts by 2 people')).toBeTruthy();
    expect(screen.getByText('Search tips')).toBeTruthy();
    expect(searches(seen, '/api/search/people')).toHaveLength(0);
  });

  it('finds people as they are typed, calling off the request a newer keystroke replaced', async () => {
    const user = userEvent.setup();
    const seen = stubApi({
      '/api/tags/trending': () => jsonResponse({ items: [] }),
      '/api/search/people': (request) => {
        if (request.url.searchParams.get('q') === 'a') {
          // Held until called off, as a slow answer would be.
          return new Promise<Response>((_resolve, reject) => {
            request.signal?.addEventListener('abort', () => {
              reject(new DOMException('Aborted', 'AbortError'));
            });
          });
        }
        return jsonResponse(makePeopleResult(['ada', 'adam']));
      },
    });
    const { router } = renderSearch();
    const field = screen.getByRole('searchbox', { name: 'Search' });
    expect(field.id).toBe('search-input');

    await user.type(field, 'a');
    await waitFor(() => {
      expect(searches(seen, '/api/search/people')).toHaveLength(1);
    });
    await user.type(field, 'd');

    const ada = await screen.findByRole('link', { name: 'ada' });
    expect(ada.getAttribute('href')).toBe('/ada');
    expect(screen.getByText('@adam')).toBeTruthy();
    const people = searches(seen, '/api/search/people');
    expect(people.map((request) => request.url.searchParams.get('q'))).toEqual(['a', 'ad']);
    expect(people[0]?.signal?.aborted).toBe(true);
    // The text is in the address, replaced rather than pushed while typing.
    expect(router.state.location.search).toBe('?q=ad');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByText('2 people found.')).toBeTruthy();
  });

  it('says when nobody matches', async () => {
    stubApi({ '/api/search/people': () => jsonResponse({ items: [] }) });
    renderSearch('/search?q=zzz');
    expect(await screen.findByRole('heading', { name: 'No people found' })).toBeTruthy();
  });

  it('lists posts with the post card and loads more with the cursor the server gave', async () => {
    const user = userEvent.setup();
    const seen = stubApi({
      '/api/search/posts': (request) =>
        request.url.searchParams.get('cursor') === '20'
          ? jsonResponse({
              items: [makePostView({ id: '5', body: 'Third tea' })],
              nextCursor: null,
            })
          : jsonResponse({
              items: [
                makePostView({ id: '9', body: 'Morning tea' }),
                makePostView({ id: '7', body: 'Tea time' }),
              ],
              nextCursor: '20',
            }),
    });
    renderSearch('/search?q=tea&tab=posts');

    expect(await screen.findByText('Morning tea')).toBeTruthy();
    expect(screen.getByText('Tea time')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Posts' }).getAttribute('aria-selected')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Third tea')).toBeTruthy();
    expect(screen.getByText('That’s every match.')).toBeTruthy();
    const posts = searches(seen, '/api/search/posts');
    expect(posts.map((request) => request.url.search)).toEqual(['?q=tea', '?q=tea&cursor=20']);
  });

  it('shows a refused search’s reason inline', async () => {
    stubApi({
      '/api/search/posts': () =>
        jsonResponse(
          {
            error: {
              code: 'validation_failed',
              message: 'Some address fields need attention.',
              fields: { q: 'Not a valid search.' },
            },
          },
          400,
        ),
    });
    renderSearch('/search?q=tea&tab=posts');
    expect(await screen.findByText('Not a valid search.')).toBeTruthy();
  });

  it('does not send a search that is too long, and says why', async () => {
    const seen = stubApi({ '/api/tags/trending': () => jsonResponse({ items: [] }) });
    renderSearch(`/search?q=${'a'.repeat(limits.search.maxQuery + 1)}`);
    expect(
      await screen.findByText(`Keep searches to ${String(limits.search.maxQuery)} characters.`),
    ).toBeTruthy();
    expect(screen.getByRole('searchbox').getAttribute('aria-invalid')).toBe('true');
    expect(searches(seen, '/api/search/people')).toHaveLength(0);
  });

  it('switches between People and Posts with the arrow keys, keeping the tab in the address', async () => {
    const user = userEvent.setup();
    const seen = stubApi({
      '/api/search/people': () => jsonResponse(makePeopleResult(['ada'])),
      '/api/search/posts': () =>
        jsonResponse({ items: [makePostView({ id: '3', body: 'By ada' })], nextCursor: null }),
    });
    const { router } = renderSearch('/search?q=ada');
    const tabs = screen.getByRole('tablist', { name: 'Search results' });
    const people = within(tabs).getByRole('tab', { name: 'People' });
    expect(people.getAttribute('aria-selected')).toBe('true');
    people.focus();
    await user.keyboard('{ArrowRight}');

    const posts = within(tabs).getByRole('tab', { name: 'Posts' });
    expect(document.activeElement).toBe(posts);
    expect(posts.getAttribute('aria-selected')).toBe('true');
    expect(router.state.location.search).toBe('?q=ada&tab=posts');
    expect(await screen.findByText('By ada')).toBeTruthy();
    expect(searches(seen, '/api/search/posts')).toHaveLength(1);
  });
});
