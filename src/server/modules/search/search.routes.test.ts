import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../shared/errors.js';
import { limits } from '../../../shared/limits.js';
import { postPageSchema, postViewSchema, type PostView } from '../../../shared/schemas/post.js';
import { peopleResultSchema, trendingTagsSchema } from '../../../shared/schemas/search.js';
import { prefixProbe } from './search.repository.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';

type Person = Awaited<ReturnType<typeof signUp>>;

/** A word no other test writes: letters only, so every tokenizer keeps it whole. */
function uniqueWord(stem = 'w'): string {
  const letters = [...randomBytes(8)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return `${stem}${letters}`;
}

describe.each(databaseTargets)('search on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  let ana: Person;
  let ben: Person;
  let cleo: Person;

  const write = async (author: Person, body: string): Promise<PostView> => {
    const response = await send(t.app, 'POST', '/api/posts', { body }, { cookie: author.cookie });
    expect(response.statusCode, response.body).toBe(201);
    return postViewSchema.parse(response.json());
  };

  const searchPosts = async (q: string, extra = '', cookie?: string) => {
    const response = await send(
      t.app,
      'GET',
      `/api/search/posts?q=${encodeURIComponent(q)}${extra}`,
      undefined,
      { cookie },
    );
    expect(response.statusCode, response.body).toBe(200);
    return postPageSchema.parse(response.json());
  };
  const idsFor = async (q: string) => (await searchPosts(q)).items.map((post) => post.id);

  const searchPeople = async (q: string, extra = '') => {
    const response = await send(
      t.app,
      'GET',
      `/api/search/people?q=${encodeURIComponent(q)}${extra}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return peopleResultSchema.parse(response.json()).items;
  };

  /** Moves a post back in time, as if written `days` ago. */
  const age = async (postId: string, days: number) => {
    const createdAt = new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
    await database.db.updateTable('posts').set({ createdAt }).where('id', '=', postId).execute();
  };

  beforeAll(async () => {
    t = await createTestApp(target, { RATE_LIMITS: 'off' });
    database = openAppDatabase(t);
    [ana, ben, cleo] = await Promise.all([
      signUp(t.app, { firstName: 'Anastasia', lastName: 'Quillfeather' }),
      signUp(t.app, { firstName: 'Benedikt', lastName: 'Quillmoor' }),
      signUp(t.app, { firstName: 'Élodie', lastName: 'Zyskowski' }),
    ]);
  });

  afterAll(async () => {
    await database.close();
    await t.close();
  });

  describe("the day's tags", () => {
    it('counts the posts and people of each tag in the last day, most used first', async () => {
      const busy = uniqueWord('busy');
      const quiet = uniqueWord('quiet');
      const stale = uniqueWord('stale');
      const old = await write(ben, `Long ago #${stale} #${busy}`);
      await age(old.id, 2);
      for (const author of [ana, ana, ben, cleo, cleo]) await write(author, `Out today #${busy}`);
      await write(ben, `Hello #${quiet} and #${busy.toUpperCase()}`);

      const response = await send(t.app, 'GET', '/api/tags/trending');
      expect(response.statusCode, response.body).toBe(200);
      const { items } = trendingTagsSchema.parse(response.json());
      expect(items[0]).toEqual({ tag: busy, posts: 6, people: 3 });
      expect(items).toContainEqual({ tag: quiet, posts: 1, people: 1 });
      expect(items.map((item) => item.tag)).not.toContain(stale);
      expect(items.length).toBeLessThanOrEqual(limits.search.trendingTags);
    });
  });

  describe('people', () => {
    it('finds people by a prefix of their username, in any case, with or without @', async () => {
      const prefix = ana.user.username.slice(0, 10);
      for (const q of [prefix, prefix.toUpperCase(), `@${prefix}`]) {
        const found = await searchPeople(q);
        expect(
          found.map((person) => person.uid),
          q,
        ).toContain(ana.user.uid);
      }
    });

    it('finds people by a prefix of their first, last or full name', async () => {
      expect((await searchPeople('anastas')).map((person) => person.uid)).toContain(ana.user.uid);
      expect((await searchPeople('QUILLF')).map((person) => person.uid)).toEqual([ana.user.uid]);
      expect((await searchPeople('quill')).map((person) => person.uid).sort()).toEqual(
        [ana.user.uid, ben.user.uid].sort(),
      );
      expect((await searchPeople('Benedikt Quillm')).map((person) => person.uid)).toEqual([
        ben.user.uid,
      ]);
      expect(await searchPeople('Benedikt Quillf')).toEqual([]);
      for (const q of ['Élo', 'élo', 'ÉLODIE']) {
        expect((await searchPeople(q)).map((person) => person.uid)).toEqual([cleo.user.uid]);
      }
    });

    it('returns authors as posts show them', async () => {
      const [found] = await searchPeople(ben.user.username);
      expect(found).toEqual({
        uid: ben.user.uid,
        username: ben.user.username,
        firstName: 'Benedikt',
        lastName: 'Quillmoor',
        displayName: null,
        avatarThumb: null,
        active: true,
      });
    });

    it('puts the exact username first, then people with more followers', async () => {
      const stem = uniqueWord('p').slice(0, 8);
      const exact = await signUp(t.app, { username: stem });
      const popular = await signUp(t.app, { username: `${stem}_popular` });
      const other = await signUp(t.app, { username: `${stem}_other` });
      for (const follower of [ana, ben]) {
        const response = await send(
          t.app,
          'PUT',
          `/api/users/${popular.user.uid}/follow`,
          undefined,
          {
            cookie: follower.cookie,
          },
        );
        expect(response.statusCode, response.body).toBe(200);
      }
      expect((await searchPeople(stem)).map((person) => person.uid)).toEqual([
        exact.user.uid,
        popular.user.uid,
        other.user.uid,
      ]);
      expect((await searchPeople(stem, '&limit=1')).map((person) => person.uid)).toEqual([
        exact.user.uid,
      ]);
    });

    it('finds deactivated people too, marked inactive, as follow lists show them', async () => {
      const person = await signUp(t.app, { firstName: 'Dormant' });
      await t.app.services.users.setActive(person.user.username, false);
      const [found] = await searchPeople(person.user.username);
      expect(found).toMatchObject({ uid: person.user.uid, active: false });
    });

    it('reads control characters as spaces', async () => {
      const found = await searchPeople(`${ana.user.username}\u0000`);
      expect(found.map((person) => person.uid)).toEqual([ana.user.uid]);
      const response = await send(t.app, 'GET', '/api/search/people?q=%00');
      expectError(response, 400, 'validation_failed', 'q');
    });

    it('reads LIKE wildcards as text', async () => {
      expect(await searchPeople('%')).toEqual([]);
      expect(await searchPeople('_')).toEqual([]);
      expect(await searchPeople('\\')).toEqual([]);
      expect(await searchPeople('person%')).toEqual([]);
      // `_` is a literal underscore, as usernames have.
      const prefix = ana.user.username.slice(0, ana.user.username.indexOf('_') + 1);
      expect((await searchPeople(prefix)).length).toBeGreaterThan(0);
    });

    it('refuses an empty or over-long search with a 400', async () => {
      for (const q of ['', '   ', '@', 'x'.repeat(limits.search.maxQuery + 1)]) {
        const response = await send(t.app, 'GET', `/api/search/people?q=${encodeURIComponent(q)}`);
        expectError(response, 400, 'validation_failed', 'q');
      }
      expectError(await send(t.app, 'GET', '/api/search/people'), 400, 'validation_failed', 'q');
      const tooMany = await send(
        t.app,
        'GET',
        `/api/search/people?q=a&limit=${limits.search.peopleMax + 1}`,
      );
      expectError(tooMany, 400, 'validation_failed', 'limit');
    });
  });

  describe('posts', () => {
    it('finds a post by a word from the middle of its text', async () => {
      const word = uniqueWord();
      const post = await write(ana, `The kettle by the ${word} window was warm this morning.`);
      const page = await searchPosts(word);
      expect(page.items).toEqual([{ ...post, liked: false }]);
      expect(page.nextCursor).toBeNull();
    });

    it('matches the last word as a prefix, as people type', async () => {
      const word = uniqueWord();
      const post = await write(ana, `Fresh ${word} today.`);
      expect(await idsFor(word.slice(0, 5))).toEqual([post.id]);
      expect(await idsFor(`fresh ${word.slice(0, 6)}`)).toEqual([post.id]);
      // Only the last word: an earlier one must match whole.
      expect(await idsFor(`${word.slice(0, 6)} fresh`)).toEqual([]);
    });

    it('finds a word typed in full at once, even after a search for its beginning', async () => {
      const word = uniqueWord();
      const early = await write(cleo, `Early ${word.slice(0, 6)} here`);
      expect(await idsFor(word.slice(0, 5))).toEqual([early.id]);
      const later = await write(cleo, `Later ${word} here`);
      expect(await idsFor(word)).toEqual([later.id]);
      expect(await idsFor(`later ${word}`)).toEqual([later.id]);
    });

    it('finds the same matches for a prefix common among the newest posts as for a rare one', async () => {
      // PostgreSQL reads a prefix by one plan or another from how often it matches the newest posts
      // (`prefixProbe`); the answer is the same either way.
      const common = uniqueWord();
      const rare = uniqueWord();
      const written: PostView[] = [];
      for (let index = 0; index < prefixProbe.dense + 2; index += 1) {
        written.push(await write(ben, `${common} number ${index}`));
      }
      const lone = await write(ben, `${rare} once`);
      const newestFirst = written.map((post) => post.id).reverse();
      const everyPage = async (q: string) => {
        const ids: string[] = [];
        let cursor: string | null = null;
        do {
          const page = await searchPosts(q, cursor === null ? '' : `&cursor=${cursor}`);
          ids.push(...page.items.map((post) => post.id));
          cursor = page.nextCursor;
        } while (cursor !== null);
        return ids;
      };
      expect((await everyPage(common.slice(0, 7))).sort()).toEqual([...newestFirst].sort());
      expect(await idsFor(rare.slice(0, 7))).toEqual([lone.id]);
    });

    it('needs every word, in any case and order', async () => {
      const one = uniqueWord();
      const two = uniqueWord();
      const both = await write(ben, `${one} and ${two}`);
      await write(ben, `${one} alone`);
      expect(await idsFor(`${two.toUpperCase()} ${one}`)).toEqual([both.id]);
    });

    it('matches a quoted phrase as written', async () => {
      const word = uniqueWord();
      const inOrder = await write(ana, `A quiet ${word} river walk`);
      await write(ana, `A ${word} quiet walk by the river`);
      expect(await idsFor(`"${word} river"`)).toEqual([inOrder.id]);
      expect((await idsFor(`${word} river`)).sort()).toHaveLength(2);
      // An unbalanced quote closes at the end.
      expect(await idsFor(`"quiet ${word} river`)).toEqual([inOrder.id]);
    });

    it('keeps one person with from:, alone or with words', async () => {
      const word = uniqueWord();
      const byAna = await write(ana, `${word} from Ana`);
      const byBen = await write(ben, `${word} from Ben`);
      expect(await idsFor(`from:${ana.user.username} ${word}`)).toEqual([byAna.id]);
      expect(await idsFor(`${word} from:@${ben.user.username.toUpperCase()}`)).toEqual([byBen.id]);
      // Only from: lists that person's posts, newest first.
      const page = await searchPosts(`from:${ben.user.username}`, '&limit=1');
      expect(page.items.map((post) => post.id)).toEqual([byBen.id]);
      expect(page.items[0]?.author.uid).toBe(ben.user.uid);
    });

    it('finds nothing, without an error, from someone who does not exist', async () => {
      expect(await searchPosts('from:nobody_here_at_all bread')).toEqual({
        items: [],
        nextCursor: null,
      });
    });

    it('keeps posts with a #tag, alone or with words and from:', async () => {
      const tag = uniqueWord('tag');
      const word = uniqueWord();
      const tagged = await write(ana, `Baking day #${tag} ${word}`);
      const taggedByBen = await write(ben, `Also #${tag.toUpperCase()}`);
      await write(ana, `${word} without the tag, only ${tag} as a word`);
      expect(await idsFor(`#${tag}`)).toEqual([taggedByBen.id, tagged.id]);
      expect(await idsFor(`${word} #${tag}`)).toEqual([tagged.id]);
      expect(await idsFor(`#${tag} from:${ben.user.username}`)).toEqual([taggedByBen.id]);
      expect(await idsFor(`#${tag} from:${cleo.user.username}`)).toEqual([]);
      expect(await idsFor(`#${tag} #${uniqueWord('none')}`)).toEqual([]);
    });

    it('combines words, a phrase, a tag and from:', async () => {
      const word = uniqueWord();
      const tag = uniqueWord('tag');
      const match = await write(cleo, `Sunny ${word} at the harbour market #${tag}`);
      await write(cleo, `Sunny ${word} at the market harbour #${tag}`);
      await write(ana, `Sunny ${word} at the harbour market #${tag}`);
      expect(
        await idsFor(
          `from:${cleo.user.username} "harbour market" #${tag} sunny ${word.slice(0, 4)}`,
        ),
      ).toEqual([match.id]);
    });

    it('shows what the viewer likes, as the feed does', async () => {
      const word = uniqueWord();
      const post = await write(ana, `Like this ${word}`);
      const like = await send(t.app, 'PUT', `/api/posts/${post.id}/like`, undefined, {
        cookie: ben.cookie,
      });
      expect(like.statusCode, like.body).toBe(200);
      const [seenByBen] = (await searchPosts(word, '', ben.cookie)).items;
      expect(seenByBen).toMatchObject({ id: post.id, liked: true, likeCount: 1 });
      const [seenByAnyone] = (await searchPosts(word)).items;
      expect(seenByAnyone).toMatchObject({ id: post.id, liked: false, likeCount: 1 });
    });

    it('follows edits: the new word finds the post, the old one no longer does', async () => {
      const before = uniqueWord();
      const after = uniqueWord();
      const post = await write(ana, `Original ${before} text`);
      expect(await idsFor(before)).toEqual([post.id]);
      const edit = await send(
        t.app,
        'PATCH',
        `/api/posts/${post.id}`,
        { body: `Edited ${after} text` },
        { cookie: ana.cookie },
      );
      expect(edit.statusCode, edit.body).toBe(200);
      expect(await idsFor(before)).toEqual([]);
      const [found] = (await searchPosts(after)).items;
      expect(found).toMatchObject({ id: post.id, body: `Edited ${after} text` });
      // A like changes the row but not the text: the post is still found.
      await send(t.app, 'PUT', `/api/posts/${post.id}/like`, undefined, { cookie: ben.cookie });
      expect(await idsFor(after)).toEqual([post.id]);
    });

    it('never shows a deleted post, nor the posts of a deleted account', async () => {
      const word = uniqueWord();
      const post = await write(ben, `Soon gone ${word}`);
      const deleted = await send(t.app, 'DELETE', `/api/posts/${post.id}`, undefined, {
        cookie: ben.cookie,
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await idsFor(word)).toEqual([]);

      const leaving = await signUp(t.app);
      const other = uniqueWord();
      await write(leaving, `Leaving ${other}`);
      expect(await idsFor(other)).toHaveLength(1);
      await database.db.deleteFrom('users').where('id', '=', leaving.user.uid).execute();
      expect(await idsFor(other)).toEqual([]);
      expect(await idsFor(`from:${leaving.user.username}`)).toEqual([]);
    });

    it('pages through results with the cursor, without repeats, up to the deepest result', async () => {
      const word = uniqueWord();
      const written: string[] = [];
      for (let i = 0; i < 7; i += 1) written.push((await write(cleo, `Page ${word} ${i}`)).id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await searchPosts(word, `&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.items.map((post) => post.id));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 10);
      expect(pages).toBe(3);
      expect(seen.sort()).toEqual([...written].sort());
      // Past the deepest result there is nothing.
      const beyond = await searchPosts(word, `&cursor=${limits.search.maxResults}`);
      expect(beyond).toEqual({ items: [], nextCursor: null });
      expectError(
        await send(t.app, 'GET', `/api/search/posts?q=${word}&cursor=abc`),
        400,
        'validation_failed',
        'cursor',
      );
    });

    it('ranks newer posts above older ones that match as well', async () => {
      const word = uniqueWord();
      const old = await write(ana, `Same ${word} words`);
      const recent = await write(ana, `Same ${word} words`);
      const older = await write(ana, `Same ${word} words`);
      await age(old.id, 90);
      await age(older.id, 400);
      expect(await idsFor(word)).toEqual([recent.id, old.id, older.id]);
    });

    it('ranks a closer match above a looser one of the same age', async () => {
      const word = uniqueWord();
      const loose = await write(
        ben,
        `A long walk past the market, the harbour, the hill and the forest, then ${word} once.`,
      );
      const close = await write(ben, `${word} ${word} ${word}!`);
      // Written in the same second, as far as ranking goes.
      await age(loose.id, 0);
      await age(close.id, 0);
      expect(await idsFor(word)).toEqual([close.id, loose.id]);
    });

    it('reads search syntax and hostile text as words: results or a 400, never a 5xx', async () => {
      const word = uniqueWord();
      const post = await write(cleo, `Safe ${word} here, café 🎉 naïve "quoted" NEAR AND`);
      const hostile = [
        '"',
        '""',
        '*',
        `${word}*`,
        `NEAR(${word}`,
        `NEAR(${word}, bread)`,
        `${word} AND`,
        `${word} OR bread`,
        `NOT ${word}`,
        `-${word}`,
        `^${word}`,
        `body:${word}`,
        `authorId:${word}`,
        `(${word}`,
        `${word})`,
        `'; DROP TABLE posts; --`,
        `${word}'; DROP TABLE posts; --`,
        `"${word}`,
        `${word}"`,
        `"${word} "safe`,
        `${word} \\`,
        `${word} %_`,
        `${word} :*`,
        `${word} & | ! <->`,
        `${word}:*`,
        'from:"x"',
        "from:'; DROP TABLE users; --",
        '#"x"',
        '#',
        '🎉',
        `${word} 🎉`,
        'café naïve',
        'CAFE',
        '日本語',
        '\u0000',
        `${word}\u0000byte`,
        `"${word}\u0000"`,
        '\u202e',
        'a'.repeat(limits.search.maxQuery),
        `${'"'.repeat(100)}${word}`,
        Array.from({ length: 60 }, (_, i) => `w${i}`)
          .join(' ')
          .slice(0, limits.search.maxQuery),
      ];
      for (const q of hostile) {
        const response = await send(t.app, 'GET', `/api/search/posts?q=${encodeURIComponent(q)}`);
        expect(response.statusCode, `${JSON.stringify(q)}: ${response.body}`).toBeLessThan(500);
        if (response.statusCode === 200) postPageSchema.parse(response.json());
        else expect(errorBodySchema.parse(response.json()).error.message).toMatch(/\w/);
        expect([200, 400], JSON.stringify(q)).toContain(response.statusCode);
      }
      // The tables are still there, and the text is searchable by its own words.
      expect(await idsFor(`NEAR( ${word}`)).toEqual([post.id]);
      expect(await idsFor(`${word} NEAR(`)).toEqual([post.id]);
      expect(await idsFor(`${word} AND`)).toEqual([post.id]);
      expect(await idsFor(`"${word}`)).toEqual([post.id]);
      expect(await idsFor(`${word}*`)).toEqual([post.id]);
      expect(await idsFor(`${word} 🎉`)).toEqual([post.id]);
    });

    it('refuses an empty, over-long or wordless search with a clear 400', async () => {
      for (const q of ['', '   ', '"', '* ( ) ^', '🎉', 'x'.repeat(limits.search.maxQuery + 1)]) {
        const response = await send(t.app, 'GET', `/api/search/posts?q=${encodeURIComponent(q)}`);
        const error = expectError(response, 400, 'validation_failed', 'q');
        expect(error.message.length).toBeGreaterThan(10);
      }
      expectError(await send(t.app, 'GET', '/api/search/posts'), 400, 'validation_failed', 'q');
    });
  });
});
