import type { Page } from '@playwright/test';
import { postPath } from '../src/shared/paths.js';
import {
  expect,
  expectNoA11yViolations,
  test,
  uniquePostText,
  type HearthFixtures,
  type TestUser,
} from './fixtures.js';
import { pngFile } from './support/images.js';
import { feedTab, findInFeed, postCard } from './support/posts.js';

// axe on every page, in both colour schemes: no violation of impact serious or critical.

interface PageCase {
  name: string;
  /** Where to go; `user` is a fresh user that the case may sign in as. */
  path: (user: TestUser) => string;
  signedIn: boolean;
  /** Something that shows the page has rendered (not the loading screen). */
  ready: (page: Page, user: TestUser) => Promise<void>;
}

const cases: PageCase[] = [
  {
    name: 'feed',
    path: () => '/feed',
    signedIn: false,
    ready: (page) => expect(page.getByRole('heading', { name: 'Feed', exact: true })).toBeVisible(),
  },
  {
    name: 'feed, signed in',
    path: () => '/feed',
    signedIn: true,
    ready: (page, user) =>
      expect(page.getByRole('button', { name: user.displayName })).toBeVisible(),
  },
  {
    name: 'login',
    path: () => '/login',
    signedIn: false,
    ready: (page) => expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible(),
  },
  {
    name: 'register',
    path: () => '/register',
    signedIn: false,
    ready: (page) =>
      expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible(),
  },
  {
    name: 'reset, request state',
    path: () => '/reset-password',
    signedIn: false,
    ready: (page) => expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible(),
  },
  {
    name: 'reset, new-password state',
    path: () => '/reset-password?token=a11y-token',
    signedIn: false,
    ready: (page) => expect(page.getByRole('button', { name: 'Set new password' })).toBeVisible(),
  },
  {
    name: 'profile',
    path: (user) => `/${user.username}`,
    signedIn: false,
    ready: (page, user) =>
      expect(page.getByRole('heading', { name: user.displayName })).toBeVisible(),
  },
  {
    name: 'own profile, signed in',
    path: (user) => `/${user.username}`,
    signedIn: true,
    ready: (page, user) =>
      expect(page.getByRole('heading', { name: user.displayName })).toBeVisible(),
  },
  {
    name: 'edit profile',
    path: (user) => `/${user.username}/edit-profile`,
    signedIn: true,
    ready: (page) =>
      expect(page.getByRole('heading', { name: /edit (your )?profile/i })).toBeVisible(),
  },
  {
    name: 'terms of service',
    path: () => '/tos',
    signedIn: false,
    ready: (page) => expect(page.getByRole('heading', { level: 1, name: /terms/i })).toBeVisible(),
  },
  {
    name: 'privacy policy',
    path: () => '/privacy',
    signedIn: false,
    ready: (page) =>
      expect(page.getByRole('heading', { level: 1, name: /privacy/i })).toBeVisible(),
  },
  {
    name: 'not found',
    path: () => '/this/does/not/exist',
    signedIn: false,
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    name: 'post not found',
    path: () => '/post/nothing-here',
    signedIn: false,
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
];

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });

    for (const pageCase of cases) {
      test(`${pageCase.name} has no serious or critical violation`, async ({
        page,
        createUser,
        login,
      }) => {
        const user = await createUser();
        if (pageCase.signedIn) await login(page, user);
        await page.goto(pageCase.path(user));
        await pageCase.ready(page, user);
        await expectNoA11yViolations(page, `${pageCase.name} (${scheme})`);
      });
    }

    test('the open user menu has no serious or critical violation', async ({
      page,
      createUser,
      login,
    }) => {
      const user = await createUser();
      await login(page, user);
      await page.goto('/feed');
      await page.getByRole('button', { name: user.displayName }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectNoA11yViolations(page, `user menu (${scheme})`);
    });

    test('the sign-up form with errors has no serious or critical violation', async ({ page }) => {
      await page.goto('/register');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await expectNoA11yViolations(page, `sign-up errors (${scheme})`);
    });

    test.describe('pages with posts, comments and follows', () => {
      /** A post with an image, a like, a comment and a reply, by an author the viewer follows. */
      async function withContent({
        createUser,
        createPost,
        createComment,
        follow,
        apiAs,
      }: Pick<HearthFixtures, 'createUser' | 'createPost' | 'createComment' | 'follow' | 'apiAs'>) {
        const author = await createUser();
        const viewer = await createUser();
        await follow(viewer, author);
        const text = uniquePostText('Accessible #a11y post, see https://example.org');
        const post = await createPost(author, {
          body: text,
          images: [{ file: await pngFile('dot.png', 300, 200), alt: 'A red rectangle' }],
        });
        const comment = await createComment(viewer, post.id, 'A first comment');
        await createComment(author, post.id, 'A reply to it', comment.id);
        const liked = await (await apiAs(viewer)).put(`/api/posts/${post.id}/like`);
        expect(liked.status()).toBe(200);
        return { author, viewer, post, text };
      }

      test('the feed with posts, signed in, has no serious or critical violation', async ({
        page,
        login,
        createUser,
        createPost,
        createComment,
        follow,
        apiAs,
      }) => {
        const { viewer, text } = await withContent({
          createUser,
          createPost,
          createComment,
          follow,
          apiAs,
        });
        await login(page, viewer);
        await page.goto('/feed');
        await expect(
          postCard(page, text).getByRole('img', { name: 'A red rectangle' }),
        ).toBeVisible();
        await expectNoA11yViolations(page, `feed, Following, with posts (${scheme})`);
        await feedTab(page, 'Everyone').click();
        await findInFeed(page, text);
        await expectNoA11yViolations(page, `feed, Everyone, with posts (${scheme})`);
      });

      for (const signedIn of [true, false]) {
        test(`a post with comments and replies, ${signedIn ? 'signed in' : 'signed out'}, has no serious or critical violation`, async ({
          page,
          login,
          createUser,
          createPost,
          createComment,
          follow,
          apiAs,
        }) => {
          const { viewer, post, text } = await withContent({
            createUser,
            createPost,
            createComment,
            follow,
            apiAs,
          });
          if (signedIn) await login(page, viewer);
          await page.goto(postPath(post.id));
          await expect(postCard(page, text)).toBeVisible();
          await expect(page.getByText('A reply to it')).toBeVisible();
          await expectNoA11yViolations(
            page,
            `post page, ${signedIn ? 'signed in' : 'signed out'} (${scheme})`,
          );
        });
      }

      test('a profile with posts, counts and Following has no serious or critical violation', async ({
        page,
        login,
        createUser,
        createPost,
        createComment,
        follow,
        apiAs,
      }) => {
        const { author, viewer, text } = await withContent({
          createUser,
          createPost,
          createComment,
          follow,
          apiAs,
        });
        await login(page, viewer);
        await page.goto(`/${author.username}`);
        await expect(postCard(page, text)).toBeVisible();
        await expect(
          page.getByRole('main').getByRole('button', { name: 'Following' }),
        ).toBeVisible();
        await expectNoA11yViolations(page, `profile with posts (${scheme})`);
      });
    });
  });
}
