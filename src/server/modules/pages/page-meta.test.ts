import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../shared/limits.js';
import { defaultImages } from '../../../shared/paths.js';
import { postViewSchema } from '../../../shared/schemas/post.js';
import { userDocumentSchema } from '../../../shared/schemas/user.js';
import {
  createTestApp,
  databaseTargets,
  send,
  signUp,
  testOrigin,
  type TestApp,
} from '../../test/harness.js';
import { readRoutePreloads } from '../../plugins/web.js';
import { PageMetaService } from './page-meta.js';
import * as images from '../../test/images.js';
import { sendForm, type FormValue } from '../../test/images.js';

const indexHtml =
  '<!doctype html><html><head><meta charset="utf-8"><title>x</title>' +
  '<meta name="description" content="d"></head><body><div id="root"></div></body></html>';

/** The page's `<link rel="preload" as="image">` tags, their attributes decoded. */
function imagePreloads(response: LightMyRequestResponse) {
  return [...response.body.matchAll(/<link rel="preload" as="image"([^>]*)>/g)].map((match) => {
    const attributes = Object.fromEntries(
      [...(match[1] ?? '').matchAll(/ ([a-z]+)="([^"]*)"/g)].map((pair) => [
        pair[1] ?? '',
        decode(pair[2] ?? ''),
      ]),
    );
    return attributes;
  });
}

const decode = (text: string) =>
  text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));

/** The head tags of a served page, decoded. */
function head(response: LightMyRequestResponse) {
  const html = response.body;
  const all = (pattern: RegExp) =>
    [...html.matchAll(pattern)].map((match) => decode(match[1] ?? ''));
  const meta = (name: string) =>
    all(
      new RegExp(
        `<meta (?:name|property)="${name.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`,
        'g',
      ),
    );
  return {
    titles: all(/<title>([^<]*)<\/title>/g),
    descriptions: meta('description'),
    canonicals: all(/<link rel="canonical" href="([^"]*)">/g),
    /** The single value of a meta tag, or undefined when it is absent (and a failure when repeated). */
    one(name: string) {
      const values = meta(name);
      expect(values.length, `${name} appears ${values.length} times`).toBeLessThanOrEqual(1);
      return values[0];
    },
  };
}

function expectPage(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.headers['cache-control']).toBe('no-cache');
  expect(response.body).toContain('<div id="root"></div>');
  return head(response);
}

function expectRedirect(response: LightMyRequestResponse, location: string) {
  expect(response.statusCode, response.body).toBe(301);
  expect(response.headers.location).toBe(location);
}

/**
 * Text made only of String.prototype.replace's replacement patterns: inserted as a pattern, `$\`` and
 * `$'` would copy the whole page around the insertion point and `$&` the matched tag.
 */
const replacementPatterns = (length: number) => "$`$&$'$$ ".repeat(length).slice(0, length);

/** A page holding `text` must be the size of the same page holding plain text of that length. */
function expectOwnSize(page: LightMyRequestResponse, plain: LightMyRequestResponse) {
  // Escaping turns & and ' into five-character entities; the rest is byte for byte the same.
  expect(page.body.length).toBeLessThan(plain.body.length + 2_000);
  expect(page.body.match(/<title>/g)).toHaveLength(1);
  expect(page.body.match(/<\/head>/g)).toHaveLength(1);
  expect(page.body.match(/<!doctype html>/gi)).toHaveLength(1);
}

/** What the build lists as each page's route scripts (scripts/vite-route-preloads.ts). */
const routeScripts = {
  feed: ['/assets/feed-page-a1.js', '/assets/post-list-b2.js'],
  post: ['/assets/post-page-c3.js'],
  profile: ['/assets/profile-page-d4.js', '/assets/post-list-b2.js'],
};

/** The page's `<link rel="modulepreload">` addresses, in order. */
/** The API answers a page's head preloads, in order. */
const fetchPreloads = (response: LightMyRequestResponse) =>
  [...response.body.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]*)">/g)].map(
    (match) => decode(match[1] ?? ''),
  );

/** What every page's app asks for first, whatever the page: who is signed in, and the instance. */
const startupFetches = ['/api/auth/session', '/api/instance'];

const modulePreloads = (response: LightMyRequestResponse) =>
  [...response.body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]*)">/g)].map(
    (match) => decode(match[1] ?? ''),
  );

describe('route scripts the build lists', () => {
  const listed = (content: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hearth-web-'));
    try {
      writeFileSync(path.join(dir, 'route-preloads.json'), content);
      return readRoutePreloads(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('reads each page’s scripts, and nothing from a file that is missing, broken or not the build’s', () => {
    expect(listed(JSON.stringify(routeScripts))).toEqual(routeScripts);
    expect(readRoutePreloads(tmpdir())).toEqual({});
    expect(listed('{"feed": [')).toEqual({});
    expect(listed('null')).toEqual({});
    expect(
      listed(
        JSON.stringify({
          feed: ['/assets/ok.js', 'https://elsewhere.example/x.js'],
          post: ['/assets/a"><script>.js'],
          profile: '/assets/profile.js',
          admin: ['/assets/admin.js'],
        }),
      ),
    ).toEqual({});
  });
});

describe.each(databaseTargets)('profile page head tags on $name', (target) => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'hearth-web-'));
    writeFileSync(path.join(webDir, 'index.html'), indexHtml);
    writeFileSync(path.join(webDir, 'route-preloads.json'), JSON.stringify(routeScripts));
    t = await createTestApp(target, { WEB_DIR: webDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const page = (url: string) => send(t.app, 'GET', url);
  const edit = async (uid: string, body: unknown, cookie: string) => {
    const response = await send(t.app, 'PATCH', `/api/users/${uid}/profile`, body, { cookie });
    expect(response.statusCode, response.body).toBe(200);
    return userDocumentSchema.parse(response.json());
  };

  it('fills the title, description, canonical, Open Graph and Twitter tags of a profile', async () => {
    const { user } = await signUp(t.app, { firstName: 'Grace', lastName: 'Hopper' });
    const tags = expectPage(await page(`/${user.username}`), 200);
    const title = `Grace Hopper (@${user.username}) · Hearth Test`;
    const description = `Grace Hopper (@${user.username}) on Hearth Test.`;
    const canonical = `${testOrigin}/${user.username}`;
    const image = `${testOrigin}${defaultImages.avatar}`;

    expect(tags.titles).toEqual([title]);
    expect(tags.descriptions).toEqual([description]);
    expect(tags.canonicals).toEqual([canonical]);
    expect({
      'og:type': tags.one('og:type'),
      'og:site_name': tags.one('og:site_name'),
      'og:title': tags.one('og:title'),
      'og:description': tags.one('og:description'),
      'og:url': tags.one('og:url'),
      'og:image': tags.one('og:image'),
      'og:image:alt': tags.one('og:image:alt'),
      'twitter:card': tags.one('twitter:card'),
      'twitter:title': tags.one('twitter:title'),
      'twitter:description': tags.one('twitter:description'),
      'twitter:image': tags.one('twitter:image'),
    }).toEqual({
      'og:type': 'profile',
      'og:site_name': 'Hearth Test',
      'og:title': title,
      'og:description': description,
      'og:url': canonical,
      'og:image': image,
      'og:image:alt': "Grace Hopper's avatar",
      'twitter:card': 'summary',
      'twitter:title': title,
      'twitter:description': description,
      'twitter:image': image,
    });
  });

  it('serves /ym/{username} with the same tags and /{username} as the canonical address', async () => {
    const { user } = await signUp(t.app);
    const tags = expectPage(await page(`/ym/${user.username}`), 200);
    expect(tags.canonicals).toEqual([`${testOrigin}/${user.username}`]);
    expect(tags.one('og:url')).toBe(`${testOrigin}/${user.username}`);
    expect(tags.titles[0]).toContain(`@${user.username}`);
  });

  it('takes the display name when there is no first or last name', async () => {
    const { user, cookie } = await signUp(t.app);
    await edit(user.uid, { firstName: '', lastName: '', displayName: 'Captain Grace' }, cookie);
    const tags = expectPage(await page(`/${user.username}`), 200);
    expect(tags.titles).toEqual([`Captain Grace (@${user.username}) · Hearth Test`]);
  });

  it('describes a profile by its bio, on one line and cut to 200 characters', async () => {
    const { user, cookie } = await signUp(t.app);
    const bio = `First line.\n\n${'word '.repeat(80)}`;
    await edit(user.uid, { bio }, cookie);
    const tags = expectPage(await page(`/${user.username}`), 200);
    const [description] = tags.descriptions;
    expect(description).toHaveLength(200);
    expect(description).toMatch(/^First line\. word word .*…$/);
    expect(tags.one('og:description')).toBe(description);
  });

  it('escapes HTML in the bio and the name', async () => {
    const { user, cookie } = await signUp(t.app);
    const bio = `</title><script>alert("bio")</script> & 'friends' <img src=x onerror=alert(1)>`;
    const firstName = '"><script>alert(1)</script>';
    await edit(user.uid, { bio, firstName, lastName: '' }, cookie);
    const response = await page(`/${user.username}`);
    const tags = expectPage(response, 200);
    expect(response.body).not.toMatch(/<script|<img|onerror=alert\(1\)>/i);
    expect(response.body).toContain('&#60;script&#62;');
    expect(tags.descriptions).toEqual([bio]);
    expect(tags.titles).toEqual([`${firstName} (@${user.username}) · Hearth Test`]);
    expect(tags.one('og:image:alt')).toBe(`${firstName}'s avatar`);
  });

  it('renders a bio of replacement patterns at its own size, with an intact head', async () => {
    const patterned = await signUp(t.app);
    const plain = await signUp(t.app);
    const bio = replacementPatterns(limits.bio.max);
    await edit(patterned.user.uid, { bio }, patterned.cookie);
    await edit(plain.user.uid, { bio: 'a'.repeat(limits.bio.max) }, plain.cookie);
    const response = await page(`/${patterned.user.username}`);
    const tags = expectPage(response, 200);
    expectOwnSize(response, await page(`/${plain.user.username}`));
    const description = `${bio.replace(/\s+/g, ' ').slice(0, 199).trimEnd()}…`;
    expect(tags.descriptions).toEqual([description]);
    expect(tags.one('og:description')).toBe(description);
    expect(tags.one('twitter:description')).toBe(description);
    expect(tags.canonicals).toEqual([`${testOrigin}/${patterned.user.username}`]);
    expect(tags.titles[0]).toContain(`@${patterned.user.username}`);
  });

  it('shows the uploaded avatar and its description in og:image', async () => {
    const { user, cookie } = await signUp(t.app);
    const uploaded = await sendForm(
      t.app,
      'PATCH',
      `/api/users/${user.uid}/profile`,
      { avatar: { bytes: await images.jpeg() }, avatarAlt: 'A red kite in flight' },
      { cookie },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const document = userDocumentSchema.parse(uploaded.json());
    const tags = expectPage(await page(`/${user.username}`), 200);
    expect(tags.one('og:image')).toBe(`${testOrigin}${document.avatar ?? 'missing'}`);
    expect(tags.one('twitter:image')).toBe(`${testOrigin}${document.avatar ?? 'missing'}`);
    expect(tags.one('og:image:alt')).toBe('A red kite in flight');
  });

  it('preloads the cover the profile shows first: its renditions, or the default cover', async () => {
    const { user, cookie } = await signUp(t.app);
    expect(imagePreloads(await page(`/${user.username}`))).toEqual([
      { href: defaultImages.cover, fetchpriority: 'high' },
    ]);
    const uploaded = await sendForm(
      t.app,
      'PATCH',
      `/api/users/${user.uid}/profile`,
      { cover: { bytes: await images.png(1500, 500) } },
      { cookie },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const document = userDocumentSchema.parse(uploaded.json());
    if (!document.cover || !document.coverSmall) throw new Error('the cover has no renditions');
    expect(imagePreloads(await page(`/${user.username}`))).toEqual([
      {
        href: document.cover,
        imagesrcset: `${document.coverSmall} 750w, ${document.cover} 1500w`,
        imagesizes: '(max-width: 896px) 100vw, 896px',
        fetchpriority: 'high',
      },
    ]);
    expect(imagePreloads(await page(`/no-one-${user.uid.slice(0, 8)}`))).toEqual([]);
  });

  it('preloads what the app asks for first: the session and instance on every page, the feed page at its plain address', async () => {
    const { cookie } = await signUp(t.app);
    const startup = startupFetches;
    for (const url of ['/', '/feed']) {
      const anonymousPage = await page(url);
      expect(anonymousPage.statusCode).toBe(200);
      expect(fetchPreloads(anonymousPage)).toEqual([...startup, '/api/feed?tab=everyone']);
      expect(anonymousPage.body).toContain('<title>x</title>');
      const signedIn = await send(t.app, 'GET', url, undefined, { cookie });
      expect(fetchPreloads(signedIn)).toEqual([...startup, '/api/feed?tab=following']);
    }
    // A stale session is no one: the app asks for Everyone.
    const stale = await send(t.app, 'GET', '/feed', undefined, {
      cookie: 'hearth.session_token=not-a-session',
    });
    expect(fetchPreloads(stale)).toEqual([...startup, '/api/feed?tab=everyone']);
    for (const url of [
      '/feed?tab=everyone',
      '/feed?tag=kiln',
      '/feed/',
      '/search',
      '/nobody_at_all',
      '/post/999999999',
    ]) {
      expect(fetchPreloads(await send(t.app, 'GET', url, undefined, { cookie }))).toEqual(startup);
    }
  });

  it('preloads a post and its first comments, and a profile with, for a visitor, its first posts', async () => {
    const { user, cookie } = await signUp(t.app);
    const created = await send(t.app, 'POST', '/api/posts', { body: 'Read me' }, { cookie });
    const postId = postViewSchema.parse(created.json()).id;
    for (const viewerCookie of [undefined, cookie]) {
      expect(
        fetchPreloads(
          await send(t.app, 'GET', `/post/${postId}`, undefined, { cookie: viewerCookie }),
        ),
      ).toEqual([...startupFetches, `/api/posts/${postId}`, `/api/posts/${postId}/comments`]);
    }
    const profile = `/api/users/by-username/${user.username}`;
    for (const url of [`/${user.username}`, `/ym/${user.username}`]) {
      expect(fetchPreloads(await page(url))).toEqual([
        ...startupFetches,
        profile,
        `/api/users/${user.uid}/posts`,
      ]);
      // A signed-in viewer's list waits on whether either blocks the other: the profile alone.
      expect(fetchPreloads(await send(t.app, 'GET', url, undefined, { cookie }))).toEqual([
        ...startupFetches,
        profile,
      ]);
    }
  });

  it('announces the scripts of the route each page loads, and none where the route is not known', async () => {
    const { user, cookie } = await signUp(t.app);
    const postId = postViewSchema.parse(
      (await send(t.app, 'POST', '/api/posts', { body: 'Preload me' }, { cookie })).json(),
    ).id;
    for (const url of ['/', '/feed']) {
      expect(modulePreloads(await page(url))).toEqual(routeScripts.feed);
      expect(modulePreloads(await send(t.app, 'GET', url, undefined, { cookie }))).toEqual(
        routeScripts.feed,
      );
    }
    expect(modulePreloads(await page(`/post/${postId}`))).toEqual(routeScripts.post);
    expect(modulePreloads(await page(`/${user.username}`))).toEqual(routeScripts.profile);
    expect(modulePreloads(await page(`/ym/${user.username}`))).toEqual(routeScripts.profile);
    for (const url of [
      '/feed?tag=kiln',
      '/search',
      '/settings/account',
      '/no_such_person_here',
      '/post/999999999',
    ]) {
      expect(modulePreloads(await send(t.app, 'GET', url, undefined, { cookie })), url).toEqual([]);
    }
  });

  it('answers an unknown username with a 404 page that has no profile tags', async () => {
    for (const url of ['/no_such_person_here', '/ym/no_such_person_here']) {
      const tags = expectPage(await page(url), 404);
      expect(tags.titles).toEqual(['Not found · Hearth Test']);
      expect(tags.canonicals).toEqual([]);
      expect(tags.one('og:type')).toBeUndefined();
      expect(tags.one('og:title')).toBeUndefined();
    }
  });

  it('redirects a username in another case to the lowercase address, keeping the query', async () => {
    const { user } = await signUp(t.app);
    const shouted = user.username.toUpperCase();
    expectRedirect(await page(`/${shouted}`), `/${user.username}`);
    expectRedirect(await page(`/${shouted}?tab=posts`), `/${user.username}?tab=posts`);
    expectRedirect(await page(`/ym/${shouted}`), `/ym/${user.username}`);
  });

  it('redirects an old username to the new one, on both addresses', async () => {
    const { user, cookie } = await signUp(t.app);
    const renamed = `${user.username}_new`.slice(0, 30);
    await edit(user.uid, { username: renamed }, cookie);
    expectRedirect(await page(`/${user.username}`), `/${renamed}`);
    expectRedirect(await page(`/${user.username.toUpperCase()}`), `/${renamed}`);
    expectRedirect(await page(`/ym/${user.username}`), `/ym/${renamed}`);
    expectPage(await page(`/${renamed}`), 200);
  });

  it('sends /@{username}, in any case, to the profile with a 301 that keeps the query', async () => {
    const { user, cookie } = await signUp(t.app);
    expectRedirect(await page(`/@${user.username}`), `/${user.username}`);
    expectRedirect(await page(`/@${user.username.toUpperCase()}/`), `/${user.username}`);
    expectRedirect(await page(`/@${user.username}?ref=x`), `/${user.username}?ref=x`);
    const renamed = `${user.username}_at`.slice(0, 30);
    await edit(user.uid, { username: renamed }, cookie);
    expectRedirect(await page(`/@${user.username}`), `/${renamed}`);
  });

  it('sends /@{username}/followers and /following to the lists at the profile address', async () => {
    const { user } = await signUp(t.app);
    expectRedirect(await page(`/@${user.username}/followers`), `/${user.username}/followers`);
    expectRedirect(
      await page(`/@${user.username.toUpperCase()}/following/?ref=x`),
      `/${user.username}/following?ref=x`,
    );
    expectPage(await page(`/@${user.username}/edit-profile`), 200);
  });

  it('answers /@ with no one behind it with the 404 page, never another route', async () => {
    for (const url of [
      '/@no_such_person_here',
      '/@feed',
      '/@',
      '/@not-a-name',
      '/@no_such_person_here/followers',
      '/@feed/following',
    ]) {
      const tags = expectPage(await page(url), 404);
      expect(tags.titles).toEqual(['Not found · Hearth Test']);
      expect(tags.one('og:type')).toBeUndefined();
    }
  });

  it('answers 404 once the account is deleted', async () => {
    const { user, cookie, input } = await signUp(t.app);
    expectPage(await page(`/${user.username}`), 200);
    const deleted = await send(
      t.app,
      'POST',
      '/api/account/delete',
      { password: input.password },
      { cookie },
    );
    expect(deleted.statusCode).toBe(200);
    expectPage(await page(`/${user.username}`), 404);
  });

  it.each(['/feed', '/settings', '/login', '/ym', '/', '/some/client/route'])(
    'leaves the app route %s untouched',
    async (url) => {
      const tags = expectPage(await page(url), 200);
      expect(tags.titles).toEqual(['x']);
      expect(tags.descriptions).toEqual(['d']);
      expect(tags.canonicals).toEqual([]);
      expect(tags.one('og:type')).toBeUndefined();
    },
  );

  it('fills the tags with a trailing slash, and leaves the pages under a profile alone', async () => {
    const { user } = await signUp(t.app, { firstName: 'Grace', lastName: 'Hopper' });
    expect(expectPage(await page(`/${user.username}/`), 200).titles[0]).toContain('Grace Hopper');
    expect(expectPage(await page(`/${user.username}/edit-profile`), 200).titles).toEqual(['x']);
  });
});

describe.each(databaseTargets)('post page head tags on $name', (target) => {
  let t: TestApp;
  let webDir: string;
  let author: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'hearth-web-'));
    writeFileSync(path.join(webDir, 'index.html'), indexHtml);
    t = await createTestApp(target, { WEB_DIR: webDir });
    author = await signUp(t.app, { firstName: 'Grace', lastName: 'Hopper' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('serves a post page and a profile page without their preloads when the viewer cannot be looked up', async () => {
    const created = await send(
      t.app,
      'POST',
      '/api/posts',
      { body: 'Still here' },
      {
        cookie: author.cookie,
      },
    );
    const postId = postViewSchema.parse(created.json()).id;
    const pages = new PageMetaService(t.app.services.users, t.app.services.posts, t.config);
    const down = () => Promise.reject(new Error('the database is down'));
    const post = await pages.forPath(`/post/${postId}`, down);
    expect(post.status).toBe(200);
    expect(post.preloadFetches).toBeUndefined();
    const profile = await pages.forPath(`/${author.user.username}`, down);
    expect(profile.status).toBe(200);
    // Not known to be a visitor: the profile's own document only.
    expect(profile.preloadFetches).toEqual([`/api/users/by-username/${author.user.username}`]);
  });

  it('names the author, quotes the text and shows the first image', async () => {
    const created = await sendForm(
      t.app,
      'POST',
      '/api/posts',
      {
        body: 'Found the first actual bug <b>today</b>: a moth in relay 70.',
        image0: { bytes: await images.jpeg(800, 600), filename: 'moth.jpg', type: 'image/jpeg' },
        alt0: 'A moth taped into a logbook',
      },
      { cookie: author.cookie },
    );
    expect(created.statusCode, created.body).toBe(201);
    const post = created.json<{ id: string; images: { url: string }[] }>();
    const tags = expectPage(await send(t.app, 'GET', `/post/${post.id}`), 200);
    expect(tags.titles).toEqual([
      'Grace Hopper on Hearth Test: “Found the first actual bug <b>today</b>: a moth in relay 70.”',
    ]);
    expect(tags.one('og:type')).toBe('article');
    expect(tags.one('og:description')).toBe(
      'Found the first actual bug <b>today</b>: a moth in relay 70.',
    );
    expect(tags.canonicals).toEqual([`${testOrigin}/post/${post.id}`]);
    expect(tags.one('og:image')).toBe(`${testOrigin}${post.images[0]?.url ?? ''}`);
    expect(tags.one('og:image:alt')).toBe('A moth taped into a logbook');
    expect(tags.one('twitter:card')).toBe('summary_large_image');
    // The text is escaped: no markup of the post reaches the page's head.
    expect(created.body).toContain('<b>');
    expect((await send(t.app, 'GET', `/post/${post.id}`)).body).not.toContain('<b>today');
  });

  const postWithImages = async (count: number) => {
    const form: Record<string, FormValue> = { body: 'Kiln day' };
    for (let index = 0; index < count; index += 1) {
      form[`image${String(index)}`] = { bytes: await images.jpeg(1600, 1067) };
    }
    const created = await sendForm(t.app, 'POST', '/api/posts', form, { cookie: author.cookie });
    expect(created.statusCode, created.body).toBe(201);
    return postViewSchema.parse(created.json());
  };

  it('preloads the first image with the srcset and sizes the page gives it', async () => {
    const single = await postWithImages(1);
    const [small, medium, feed] = single.images[0]?.sources ?? [];
    if (!small || !medium || !feed) throw new Error('the image has no renditions');
    expect(imagePreloads(await send(t.app, 'GET', `/post/${single.id}`))).toEqual([
      {
        href: single.images[0]?.url,
        imagesrcset: `${small.url} 600w, ${medium.url} 800w, ${feed.url} 1200w`,
        imagesizes: '(max-width: 672px) calc(100vw - 58px), 590px',
        fetchpriority: 'high',
      },
    ]);
    // Two images share two columns: the first is half as wide.
    const pair = await postWithImages(2);
    const preloads = imagePreloads(await send(t.app, 'GET', `/post/${pair.id}`));
    expect(preloads.map((link) => [link.href, link.imagesizes])).toEqual([
      [pair.images[0]?.url, '(max-width: 672px) calc(50vw - 31px), 293px'],
    ]);
    // Text alone: nothing to preload.
    expect(
      imagePreloads(await send(t.app, 'GET', `/post/${(await postWithImages(0)).id}`)),
    ).toEqual([]);
  });

  it('preloads the feed’s lead image, the first among its top three posts, as each viewer’s feed shows it', async () => {
    const reader = await signUp(t.app);
    const follow = await send(t.app, 'PUT', `/api/users/${author.user.uid}/follow`, undefined, {
      cookie: reader.cookie,
    });
    expect(follow.statusCode, follow.body).toBe(200);
    const lead = await postWithImages(2);
    const [small, medium, feed] = lead.images[0]?.sources ?? [];
    if (!small || !medium || !feed) throw new Error('the image has no renditions');
    await postWithImages(0);
    await postWithImages(0);
    // Third from the top: still the list's lead image, for the Everyone and the Following feed alike.
    for (const cookie of [undefined, reader.cookie]) {
      for (const url of ['/', '/feed']) {
        expect(imagePreloads(await send(t.app, 'GET', url, undefined, { cookie }))).toEqual([
          {
            href: lead.images[0]?.url,
            imagesrcset: `${small.url} 600w, ${medium.url} 800w, ${feed.url} 1200w`,
            imagesizes: '(max-width: 672px) calc(50vw - 31px), 293px',
            fetchpriority: 'high',
          },
        ]);
      }
      // Another address asks for another page: nothing is preloaded for it.
      expect(
        imagePreloads(await send(t.app, 'GET', '/feed?tag=kiln', undefined, { cookie })),
      ).toEqual([]);
    }
    // Fourth from the top: the list loads it lazily, so nothing is preloaded.
    await postWithImages(0);
    for (const cookie of [undefined, reader.cookie]) {
      expect(imagePreloads(await send(t.app, 'GET', '/feed', undefined, { cookie }))).toEqual([]);
    }
    // A reader who blocks the author sees none of their posts, so none of their images either.
    const top = await postWithImages(1);
    expect(
      imagePreloads(await send(t.app, 'GET', '/feed', undefined, { cookie: reader.cookie })).map(
        (link) => link.href,
      ),
    ).toEqual([top.images[0]?.url]);
    const block = await send(t.app, 'PUT', `/api/users/${author.user.uid}/block`, undefined, {
      cookie: reader.cookie,
    });
    expect(block.statusCode, block.body).toBe(200);
    expect(
      imagePreloads(await send(t.app, 'GET', '/feed', undefined, { cookie: reader.cookie })),
    ).toEqual([]);
  });

  it('preloads nothing of a removed post, nor for a viewer the author blocked', async () => {
    const moderator = await signUp(t.app);
    await t.app.services.users.setRole(moderator.user.username, 'moderator');
    const removed = await postWithImages(1);
    const removal = await send(
      t.app,
      'POST',
      `/api/admin/posts/${removed.id}/removal`,
      { reason: 'Spam' },
      { cookie: moderator.cookie },
    );
    expect(removal.statusCode, removal.body).toBe(200);
    for (const cookie of [undefined, author.cookie]) {
      const response = await send(t.app, 'GET', `/post/${removed.id}`, undefined, { cookie });
      expectPage(response, 404);
      expect(imagePreloads(response)).toEqual([]);
      expect(response.body).not.toContain(removed.images[0]?.url ?? 'missing');
    }

    const shown = await postWithImages(1);
    const blocked = await signUp(t.app);
    const block = await send(t.app, 'PUT', `/api/users/${blocked.user.uid}/block`, undefined, {
      cookie: author.cookie,
    });
    expect(block.statusCode, block.body).toBe(200);
    const asBlocked = await send(t.app, 'GET', `/post/${shown.id}`, undefined, {
      cookie: blocked.cookie,
    });
    expectPage(asBlocked, 200);
    expect(imagePreloads(asBlocked)).toEqual([]);
    expect(fetchPreloads(asBlocked)).toEqual(startupFetches);
    // The same page for anyone else, signed in or not, still preloads it.
    for (const cookie of [undefined, moderator.cookie]) {
      const response = await send(t.app, 'GET', `/post/${shown.id}`, undefined, { cookie });
      expect(imagePreloads(response).map((link) => link.href)).toEqual([shown.images[0]?.url]);
    }
  });

  it('renders a post of replacement patterns at its own size, with an intact head', async () => {
    const create = async (body: string) => {
      const created = await send(t.app, 'POST', '/api/posts', { body }, { cookie: author.cookie });
      expect(created.statusCode, created.body).toBe(201);
      return send(t.app, 'GET', `/post/${created.json<{ id: string }>().id}`);
    };
    const body = replacementPatterns(limits.post.max);
    const response = await create(body);
    const tags = expectPage(response, 200);
    expectOwnSize(response, await create('a'.repeat(limits.post.max)));
    const flat = body.replace(/\s+/g, ' ');
    expect(tags.titles).toEqual([`Grace Hopper on Hearth Test: “${flat.slice(0, 79).trimEnd()}…”`]);
    expect(tags.descriptions).toEqual([`${flat.slice(0, 199).trimEnd()}…`]);
    expect(tags.one('og:title')).toBe(tags.titles[0]);
    expect(tags.one('og:description')).toBe(tags.descriptions[0]);
    expect(tags.one('twitter:card')).toBe('summary');
  });

  it('answers 404 for unknown, malformed and deleted posts, still rendering the app', async () => {
    for (const url of ['/post/999999', '/post/abc', '/post/0', '/post/']) {
      expectPage(await send(t.app, 'GET', url), 404);
    }
    const created = await send(
      t.app,
      'POST',
      '/api/posts',
      { body: 'Soon gone' },
      {
        cookie: author.cookie,
      },
    );
    const { id } = created.json<{ id: string }>();
    expectPage(await send(t.app, 'GET', `/post/${id}`), 200);
    const deleted = await send(t.app, 'DELETE', `/api/posts/${id}`, undefined, {
      cookie: author.cookie,
    });
    expect(deleted.statusCode).toBe(204);
    expectPage(await send(t.app, 'GET', `/post/${id}`), 404);
  });
});
