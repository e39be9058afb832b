import { describe, expect, it } from 'vitest';
import { limits } from '@shared/limits.js';
import { profileUpdateSchema } from '@shared/schemas/profile.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import {
  profileFormEntries,
  profileFormSchema,
  profileFormValues,
  toFormData,
  usernameLockedUntil,
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

describe('profileFormEntries', () => {
  const current = makeUserDocument({
    bio: 'Analyst',
    website: null,
    avatar: '/media/avatars/a-400.webp',
    avatarAlt: 'A portrait',
    cover: null,
  });
  const same = parse(profileFormValues(current));

  it('sends nothing when nothing changed', () => {
    expect(
      profileFormEntries({ current, values: same, avatar: untouched, cover: untouched }),
    ).toEqual([]);
  });

  it('ignores differences the server would not store (spaces, case of the username)', () => {
    const values = parse({
      ...profileFormValues(current),
      firstName: '  Ada ',
      bio: 'Analyst\n',
      username: 'ADA',
    });
    expect(profileFormEntries({ current, values, avatar: untouched, cover: untouched })).toEqual(
      [],
    );
  });

  it('sends only changed fields, and an empty string for a cleared one', () => {
    const values = parse({ ...profileFormValues(current), lastName: 'Byron', bio: '' });
    expect(profileFormEntries({ current, values, avatar: untouched, cover: untouched })).toEqual([
      ['lastName', 'Byron'],
      ['bio', ''],
    ]);
  });

  it('sends a new username lowercased', () => {
    const values = parse({ ...profileFormValues(current), username: 'Ada_L' });
    expect(profileFormEntries({ current, values, avatar: untouched, cover: untouched })).toEqual([
      ['username', 'ada_l'],
    ]);
  });

  it('sends a new image after the text, with its description', () => {
    const file = new File(['png'], 'me.png', { type: 'image/png' });
    const values = parse({ ...profileFormValues(current), displayName: 'Countess' });
    expect(
      profileFormEntries({ current, values, avatar: { file, remove: false }, cover: untouched }),
    ).toEqual([
      ['displayName', 'Countess'],
      ['avatarAlt', 'A portrait'],
      ['avatar', file],
    ]);
  });

  it('marks a saved image for removal, and ignores removing one that does not exist', () => {
    const removeBoth = { file: null, remove: true };
    expect(
      profileFormEntries({ current, values: same, avatar: removeBoth, cover: removeBoth }),
    ).toEqual([['removeAvatar', 'true']]);
  });

  it('sends a changed description of a kept image, and none for a missing image', () => {
    const values = parse({
      ...profileFormValues(current),
      avatarAlt: '',
      coverAlt: 'Hills at dusk',
    });
    expect(profileFormEntries({ current, values, avatar: untouched, cover: untouched })).toEqual([
      ['avatarAlt', ''],
    ]);
  });

  it('builds a FormData body from the entries', () => {
    const file = new File(['gif'], 'c.gif', { type: 'image/gif' });
    const form = toFormData([
      ['bio', 'Hi'],
      ['cover', file],
    ]);
    expect(form.get('bio')).toBe('Hi');
    expect((form.get('cover') as File).name).toBe('c.gif');
  });
});

describe('usernameLockedUntil (30-day rule)', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it('is null when the name may change now', () => {
    expect(usernameLockedUntil(null, now)).toBeNull();
    expect(usernameLockedUntil('2025-03-01T11:00:00Z', now)).toBeNull();
    expect(usernameLockedUntil('not a date', now)).toBeNull();
  });

  it('is the date the rule lifts while it holds', () => {
    expect(usernameLockedUntil('2025-03-20T00:00:00Z', now)?.toISOString()).toBe(
      '2025-03-20T00:00:00.000Z',
    );
  });
});
