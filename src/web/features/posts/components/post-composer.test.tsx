// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { draftKey } from '@web/lib/drafts.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { makePostView } from '@web/test/post-fixtures.js';
import { renderRoute, seenRequest, signedIn } from '@web/test/render-route.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { PostComposer } from './post-composer.js';

beforeEach(() => {
  localStorage.clear();
});
afterEach(cleanup);

const user = makeUserDocument();

function renderComposer() {
  renderRoute({
    path: '/feed',
    url: '/feed',
    auth: signedIn(),
    element: <PostComposer user={user} />,
  });
  return screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Write a post' });
}

describe('PostComposer', () => {
  it('offers back an unsent post, saying images are not kept', () => {
    localStorage.setItem(
      draftKey(user.uid, 'post'),
      JSON.stringify({ v: { body: 'Back again', images: 2 }, t: Date.now() }),
    );
    const field = renderComposer();
    expect(field.value).toBe('Back again');
    expect(
      screen.getByText(/Draft restored .*Images aren’t kept in drafts: add them again\./),
    ).toBeTruthy();
  });

  it('counts a family emoji as one character', async () => {
    const field = renderComposer();
    await userEvent.setup().type(field, '👩‍👩‍👧‍👦');
    expect(screen.getByText('1 / 5000')).toBeTruthy();
  });

  it('posts with Ctrl+Enter and forgets the draft', async () => {
    const bodies: unknown[] = [];
    stubFetch((input, init) => {
      const request = seenRequest(input, init);
      bodies.push(request.body);
      return Promise.resolve(jsonResponse(makePostView({ body: 'Hello there' }), 201));
    });
    localStorage.setItem(
      draftKey(user.uid, 'post'),
      JSON.stringify({ v: { body: 'Hello there', images: 0 }, t: Date.now() }),
    );
    const field = renderComposer();
    field.focus();
    await userEvent.setup().keyboard('{Control>}{Enter}{/Control}');
    await screen.findByText('Your post is published.');
    expect(bodies).toEqual([{ body: 'Hello there' }]);
    expect(field.value).toBe('');
    await waitFor(() => {
      expect(localStorage.getItem(draftKey(user.uid, 'post'))).toBeNull();
    });
    expect(screen.queryByText(/Draft restored/)).toBeNull();
  });
});
