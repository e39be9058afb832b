// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Thread } from '@shared/schemas/post.js';
import { makeAuthor } from '@shared/test/post-fixtures.js';
import { makeComment } from '@web/test/comment-fixtures.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { renderRoute, signedIn } from '@web/test/render-route.js';
import { CommentThread } from './comment-thread.js';

const reader = { uid: 'u9', isAdmin: false, active: true };
const bo = makeAuthor({ uid: 'u2', username: 'bo', firstName: 'Bo', lastName: 'Berg' });
const cy = makeAuthor({ uid: 'u3', username: 'cy', firstName: 'Cy', lastName: 'Cole' });

const thread: Thread = {
  ...makeComment({ id: '10', postId: '9', replyCount: 2 }),
  replies: [
    makeComment({ id: '11', postId: '9', parentId: '10', author: bo, body: 'From Bo' }),
    makeComment({ id: '12', postId: '9', parentId: '10', author: cy, body: 'From Cy' }),
  ],
};

beforeEach(() => {
  localStorage.clear();
});

afterEach(cleanup);

/** Renders the thread; each reply sent waits until the test answers it. */
function renderThread() {
  const answers: ((body: unknown) => void)[] = [];
  stubFetch((_url, init) => {
    // Anything else (the mention typeahead's people search) finds nobody.
    if (init?.method !== 'POST') return Promise.resolve(jsonResponse({ items: [] }));
    return new Promise<Response>((resolve) => {
      answers.push((body) => {
        resolve(jsonResponse(body, 201));
      });
    });
  });
  renderRoute({
    path: '/post/:postId',
    url: '/post/9',
    auth: signedIn(),
    element: (
      <CommentThread
        thread={thread}
        postId="9"
        postAuthorUid="u1"
        viewer={reader}
        posted={[]}
        threadsLoadedAt={Date.now()}
        onDeleted={() => undefined}
      />
    ),
  });
  const replyTo = (body: string) =>
    within(screen.getByText(body).closest('article') ?? document.body).getByRole('button', {
      name: 'Reply',
    });
  const answer = async (id: string) => {
    await act(async () => {
      answers.shift()?.(
        makeComment({ id, postId: '9', parentId: '10', author: makeAuthor({ uid: 'u9' }) }),
      );
      await Promise.resolve();
    });
  };
  return { replyTo, answer };
}

const replyBox = () =>
  screen.queryByRole<HTMLTextAreaElement>('textbox', { name: 'Write a reply' });

describe('CommentThread', () => {
  it('closes the reply box once the reply is sent', async () => {
    const { replyTo, answer } = renderThread();
    const user = userEvent.setup();
    await user.click(replyTo('From Bo'));
    expect(replyBox()?.value).toBe('@bo ');
    await user.type(replyBox() ?? document.body, 'thanks!');
    await user.click(screen.getByRole('button', { name: 'Post reply' }));
    await answer('13');
    await waitFor(() => {
      expect(replyBox()).toBeNull();
    });
  });

  it('keeps the box open for someone asked to be answered while a reply is sent, and greets them alone', async () => {
    const { replyTo, answer } = renderThread();
    const user = userEvent.setup();
    await user.click(replyTo('From Bo'));
    await user.type(replyBox() ?? document.body, 'thanks!');
    await user.click(screen.getByRole('button', { name: 'Post reply' }));
    await user.click(replyTo('From Cy'));
    expect(replyBox()?.value).toBe('@bo thanks!');

    await answer('13');
    await waitFor(() => {
      expect(replyBox()?.value).toBe('@cy ');
    });
    expect(document.activeElement).toBe(replyBox());
  });
});
