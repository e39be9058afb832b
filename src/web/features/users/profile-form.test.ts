import { describe, expect, it } from 'vitest';
import { limits } from '@shared/limits.js';
import { profileUpdateSchema } from '@shared/schemas/profile.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import {
  profileChanges,
  profileFormSchema,
  profileFormValues,
  type ImageSlotEdit,
  type ProfileFormInput,
} from './profile-form.js';

const untouched: ImageSlotEdit = { file: null, remove: false };

function parse(input: ProfileFormInput) {
  const result = profileFormSchema.safeParse(input);
  if (!result.success) throw new Error(result.error.message);
  return result.data;
}

describe('profileFormValues', () => {
  it('fills missing fields with empty strings', () => {
    const values = profileFormValues(makeUserDocument({ bio: null, website: 'https://a.example' }));
    expect(values).toMatchObject({ firstName: 'Ada', bio: '', website: 'https://a.example' });
  });
});

describe('profileFormSchema', () => {
  const base = profileFormValues(makeUserDocument());

  it('accepts the values of a valid document', () => {
    expect(profileFormSchema.safeParse(base).success).toBe(true);
  });

  it("agrees with the server's profileUpdateSchema on what a form stores", () => {
    const input = { ...base, bio: '  Line one\r\nline two  ', website: ' ', displayName: '' };
    const form = profileFormSchema.parse(input);
    const server = profileUpdateSchema.parse(input);
    expect(form).toEqual({ ...server, removeAvatar: undefined, removeCover: undefined });
    expect(form).toMatchObject({ bio: 'Line one\nline two', website: null, displayName: null });
  });

  it(`refuses a bio over ${limits.bio.max} characters on the bio field`, () => {
    const result = profileFormSchema.safeParse({ ...base, bio: 'x'.repeat(limits.bio.max + 1) });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['bio']);
  });

  it('refuses a javascript: website on the website field', () => {
    const result = profileFormSchema.safeParse({ ...base, website: 'javascript:alert(1)' });
    expect(result.error?.issues[0]?.path).toEqual(['website']);
  });

  it('refuses a reserved or malformed username', () => {
    expect(profileFormSchema.safeParse({ ...base, username: 'settings' }).success).toBe(false);
    expect(profileFormSchema.safeParse({ ...base, username: 'a b' }).success).toBe(false);
  });
});

describe('profileChanges', () => {
  const current = makeUserDocument({
    bio: 'Analyst',
    website: null,
    avatar: '/media/avatars/a-400.webp',
    avatarAlt: 'A portrait',
    cover: null,
  });
  const same = parse(profileFormValues(current));

  it('is null when nothing changed', () => {
    expect(
      profileChanges({ current, values: same, avatar: untouched, cover: untouched }),
    ).toBeNull();
  });

  it('ignores differences the server would not store (spaces, case of the username)', () => {
    const values = parse({
      ...profileFormValues(current),
      firstName: '  Ada ',
      bio: 'Analyst\n',
      username: 'ADA',
    });
    expect(profileChanges({ current, values, avatar: untouched, cover: untouched })).toBeNull();
  });

  it('sends only changed fields, and null for a cleared one', () => {
    const values = parse({ ...profileFormValues(current), lastName: 'Byron', bio: '' });
    expect(profileChanges({ current, values, avatar: untouched, cover: untouched })).toEqual({
      body: { lastName: 'Byron', bio: null },
      files: {},
    });
  });

  it('sends a new username lowercased', () => {
    const values = parse({ ...profileFormValues(current), username: 'Ada_L' });
    expect(profileChanges({ current, values, avatar: untouched, cover: untouched })).toEqual({
      body: { username: 'ada_l' },
      files: {},
    });
  });

  it('sends a new image with its description', () => {
    const file = new File(['png'], 'me.png', { type: 'image/png' });
    const values = parse({ ...profileFormValues(current), displayName: 'Countess' });
    expect(
      profileChanges({ current, values, avatar: { file, remove: false }, cover: untouched }),
    ).toEqual({
      body: { displayName: 'Countess', avatarAlt: 'A portrait' },
      files: { avatar: file },
    });
  });

  it('sends a new image alone when it has no description', () => {
    const file = new File(['gif'], 'c.gif', { type: 'image/gif' });
    expect(
      profileChanges({ current, values: same, avatar: untouched, cover: { file, remove: false } }),
    ).toEqual({ body: {}, files: { cover: file } });
  });

  it('marks a saved image for removal, and ignores removing one that does not exist', () => {
    const removeBoth = { file: null, remove: true };
    expect(
      profileChanges({ current, values: same, avatar: removeBoth, cover: removeBoth }),
    ).toEqual({ body: { removeAvatar: true }, files: {} });
  });

  it('sends a changed description of a kept image, and none for a missing image', () => {
    const values = parse({
      ...profileFormValues(current),
      avatarAlt: '',
      coverAlt: 'Hills at dusk',
    });
    expect(profileChanges({ current, values, avatar: untouched, cover: untouched })).toEqual({
      body: { avatarAlt: null },
      files: {},
    });
  });

  it('is what the server reads: every change parses with profileUpdateSchema', () => {
    const values = parse({ ...profileFormValues(current), bio: '', website: 'https://a.example' });
    const changes = profileChanges({
      current,
      values,
      avatar: { file: null, remove: true },
      cover: untouched,
    });
    expect(profileUpdateSchema.parse(changes?.body)).toEqual({
      bio: null,
      website: 'https://a.example',
      removeAvatar: true,
    });
  });
});
