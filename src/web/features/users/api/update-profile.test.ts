import { describe, expect, it } from 'vitest';
import { stubJsonAnswer } from '@web/test/fetch-stub.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { updateProfile } from './update-profile.js';

const user = makeUserDocument();

describe('updateProfile', () => {
  it("sends text alone as JSON to the user's profile, null clearing a field", async () => {
    const fetchMock = stubJsonAnswer(user);
    await expect(updateProfile({ user, body: { bio: null, removeCover: true } })).resolves.toEqual(
      user,
    );
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/api/users/${user.uid}/profile`);
    expect(init?.method).toBe('PATCH');
    expect(init?.body).toBe(JSON.stringify({ bio: null, removeCover: true }));
  });

  it('sends a chosen image as multipart: the text fields first, then the file', async () => {
    const fetchMock = stubJsonAnswer(user);
    const avatar = new File([new Uint8Array([1, 2, 3])], 'me.png', { type: 'image/png' });
    await updateProfile({
      user,
      body: { displayName: null, avatarAlt: 'A portrait' },
      files: { avatar },
    });
    const form = fetchMock.mock.calls[0]?.[1]?.body;
    expect(form).toBeInstanceOf(FormData);
    if (!(form instanceof FormData)) return;
    expect([...form.keys()]).toEqual(['displayName', 'avatarAlt', 'avatar']);
    expect(form.get('displayName')).toBe('');
    const file = form.get('avatar');
    expect(file instanceof File ? file.name : null).toBe('me.png');
  });

  it('refuses an answer that does not match the contract', async () => {
    stubJsonAnswer({ ...user, uid: 42 });
    await expect(updateProfile({ user, body: { bio: 'Hi' } })).rejects.toMatchObject({
      code: 'unexpected_response',
    });
  });
});
