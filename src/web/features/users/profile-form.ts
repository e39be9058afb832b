import { z } from 'zod';
import {
  altTextSchema,
  bioSchema,
  websiteSchema,
  type ProfileImageField,
  type ProfileUpdateInput,
} from '@shared/schemas/profile.js';
import { personNameSchema, usernameSchema, type UserDocument } from '@shared/schemas/user.js';

/** As in profileUpdateSchema: empty text clears the field. */
const clearable = (schema: z.ZodType<string, string>) =>
  schema.transform((value) => (value === '' ? null : value));

/**
 * The edit form's text fields, each validated by the shared schema the server's profileUpdateSchema
 * applies to it (DESIGN.md principle 3). Every field is in the form, so none is optional here; the
 * output is what the server would store (trimmed, empty as null).
 */
export const profileFormSchema = z.object({
  firstName: clearable(personNameSchema),
  lastName: clearable(personNameSchema),
  displayName: clearable(personNameSchema),
  username: usernameSchema,
  bio: clearable(bioSchema),
  website: clearable(websiteSchema),
  avatarAlt: clearable(altTextSchema),
  coverAlt: clearable(altTextSchema),
});
export type ProfileFormInput = z.input<typeof profileFormSchema>;
export type ProfileFormOutput = z.output<typeof profileFormSchema>;
export type ProfileTextField = keyof ProfileFormOutput;

/** The form's fields in the order they appear, for focusing the first server error. */
export const profileTextFields = [
  'firstName',
  'lastName',
  'displayName',
  'username',
  'bio',
  'website',
  'avatarAlt',
  'coverAlt',
] as const satisfies readonly ProfileTextField[];

const plainFields = ['firstName', 'lastName', 'displayName', 'bio', 'website'] as const;

/** What the form starts from: the document's values, with empty strings for missing ones. */
export function profileFormValues(user: UserDocument): ProfileFormInput {
  return {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    displayName: user.displayName ?? '',
    username: user.username ?? '',
    bio: user.bio ?? '',
    website: user.website ?? '',
    avatarAlt: user.avatarAlt ?? '',
    coverAlt: user.coverAlt ?? '',
  };
}

/** What the owner did with one image slot before saving. */
export interface ImageSlotEdit {
  /** A newly chosen file, or null. */
  file: File | null;
  /** The saved image is marked for removal. */
  remove: boolean;
}

export interface ProfileEdit {
  current: Pick<
    UserDocument,
    (typeof plainFields)[number] | 'username' | 'avatar' | 'avatarAlt' | 'cover' | 'coverAlt'
  >;
  values: ProfileFormOutput;
  avatar: ImageSlotEdit;
  cover: ImageSlotEdit;
}

/** A profile update as the API takes it: the changed fields, and the newly chosen images. */
export interface ProfileChanges {
  body: ProfileUpdateInput;
  files: Partial<Record<ProfileImageField, File>>;
}

const slots = [
  { field: 'avatar', alt: 'avatarAlt', removeFlag: 'removeAvatar' },
  { field: 'cover', alt: 'coverAlt', removeFlag: 'removeCover' },
] as const satisfies readonly {
  field: ProfileImageField;
  alt: ProfileTextField;
  removeFlag: keyof ProfileUpdateInput;
}[];

/**
 * The update to send: only what changed (brief: "send only the fields that changed"), or null when
 * nothing did. A cleared field is null, which clears it on the server. A new image carries its
 * description along, because the server stores the description with the image it arrives with.
 */
export function profileChanges({
  current,
  values,
  avatar,
  cover,
}: ProfileEdit): ProfileChanges | null {
  const body: ProfileUpdateInput = {};
  const files: ProfileChanges['files'] = {};
  for (const key of plainFields) {
    if (values[key] !== (current[key] ?? null)) body[key] = values[key];
  }
  if (values.username !== (current.username ?? '').toLowerCase()) body.username = values.username;
  for (const slot of slots) {
    const edit = slot.field === 'avatar' ? avatar : cover;
    const alt = values[slot.alt];
    if (edit.file) {
      if (alt !== null) body[slot.alt] = alt;
      files[slot.field] = edit.file;
    } else if (edit.remove) {
      if (current[slot.field]) body[slot.removeFlag] = true;
    } else if (current[slot.field] && alt !== (current[slot.alt] ?? null)) {
      // A description only means something for an image that stays.
      body[slot.alt] = alt;
    }
  }
  return Object.keys(body).length === 0 && Object.keys(files).length === 0 ? null : { body, files };
}
