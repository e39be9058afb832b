import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { UserDocument } from '@shared/schemas/user.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { writeUserSnapshotToCache } from './user-cache.js';
import { userKeys } from './user-keys.js';

const ada: UserDocument = makeUserDocument();

describe('writeUserSnapshotToCache', () => {
  it('patches the copy by uid and the copy by username', () => {
    const client = new QueryClient();
    client.setQueryData(userKeys.byUsername('ada'), ada);
    const changed = { ...ada, bio: 'Counting engines.' };
    writeUserSnapshotToCache(client, 'u1', changed);
    expect(client.getQueryData(userKeys.detail('u1'))).toEqual(changed);
    expect(client.getQueryData(userKeys.byUsername('ada'))).toEqual(changed);
  });

  it('leaves other users alone', () => {
    const client = new QueryClient();
    const grace = { ...ada, uid: 'u2', username: 'grace' };
    client.setQueryData(userKeys.byUsername('grace'), grace);
    writeUserSnapshotToCache(client, 'u1', { ...ada, bio: 'x' });
    expect(client.getQueryData(userKeys.byUsername('grace'))).toBe(grace);
  });

  it('drops the copy by uid and marks the copy by username stale when the user is gone', () => {
    const client = new QueryClient();
    client.setQueryData(userKeys.detail('u1'), ada);
    client.setQueryData(userKeys.byUsername('ada'), ada);
    writeUserSnapshotToCache(client, 'u1', null);
    expect(client.getQueryData(userKeys.detail('u1'))).toBeUndefined();
    expect(client.getQueryState(userKeys.byUsername('ada'))?.isInvalidated).toBe(true);
  });

  it('marks the old username stale after a rename instead of showing the new name there', () => {
    const client = new QueryClient();
    client.setQueryData(userKeys.byUsername('ada'), ada);
    writeUserSnapshotToCache(client, 'u1', { ...ada, username: 'countess' });
    expect(client.getQueryData(userKeys.byUsername('ada'))).toBe(ada);
    expect(client.getQueryState(userKeys.byUsername('ada'))?.isInvalidated).toBe(true);
  });
});
