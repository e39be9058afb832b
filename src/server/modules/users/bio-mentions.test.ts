import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userDocumentSchema, type UserDocument } from '../../../shared/schemas/user.js';
import { createTestApp, databaseTargets, send, signUp, type TestApp } from '../../test/harness.js';

describe.each(databaseTargets)('bio mentions in the user document on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  const setBio = async (uid: string, bio: string, cookie: string): Promise<UserDocument> => {
    const response = await send(t.app, 'PATCH', `/api/users/${uid}/profile`, { bio }, { cookie });
    expect(response.statusCode, response.body).toBe(200);
    return userDocumentSchema.parse(response.json());
  };
  const byUsername = async (username: string): Promise<UserDocument> => {
    const response = await send(t.app, 'GET', `/api/users/by-username/${username}`);
    expect(response.statusCode, response.body).toBe(200);
    return userDocumentSchema.parse(response.json());
  };

  it('lists the mentioned accounts that exist, once each and lowercased', async () => {
    const owner = await signUp(t.app);
    const friend = await signUp(t.app);
    const bio = `Pair programming with @${friend.user.username.toUpperCase()} and @not_here_at_all.\nAlso @${friend.user.username}, @feed and mail@example.org #tag`;
    const saved = await setBio(owner.user.uid, bio, owner.cookie);
    expect(saved.bioMentions).toEqual([friend.user.username]);
    expect((await byUsername(owner.user.username)).bioMentions).toEqual([friend.user.username]);
  });

  it('is empty without a bio or without mentions', async () => {
    const owner = await signUp(t.app);
    expect((await byUsername(owner.user.username)).bioMentions).toEqual([]);
    expect((await setBio(owner.user.uid, 'No one here. #quiet', owner.cookie)).bioMentions).toEqual(
      [],
    );
  });

  it('follows the accounts as they come and go, without the bio being saved again', async () => {
    const owner = await signUp(t.app);
    const later = `later_${owner.user.username}`.slice(0, 30);
    await setBio(owner.user.uid, `Waiting for @${later}`, owner.cookie);
    expect((await byUsername(owner.user.username)).bioMentions).toEqual([]);

    const arrival = await signUp(t.app, { username: later });
    expect((await byUsername(owner.user.username)).bioMentions).toEqual([later]);

    const renamed = `${later.slice(0, 26)}_new`;
    const rename = await send(
      t.app,
      'PATCH',
      `/api/users/${arrival.user.uid}/profile`,
      { username: renamed },
      { cookie: arrival.cookie },
    );
    expect(rename.statusCode, rename.body).toBe(200);
    expect((await byUsername(owner.user.username)).bioMentions).toEqual([]);
  });
});
