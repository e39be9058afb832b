import { useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { limits } from '@shared/limits.js';
import { defaultImages, profilePath } from '@shared/paths.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { usernameCooldownMessage, usernameLockedUntil } from '@shared/username-change.js';
import { useMentionTypeahead } from '@web/components/mention-typeahead/use-mention-typeahead.js';
import { DraftNote } from '@web/components/ui/draft-note.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { LeavePrompt } from '@web/components/ui/leave-prompt.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { TextField } from '@web/components/ui/text-field.js';
import { ApiError } from '@web/lib/api-client.js';
import { usernameChangeHint, usernameHint } from '@web/lib/field-hints.js';
import { draftText } from '@web/lib/drafts.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { textCounter } from '@web/lib/text-counter.js';
import { useDraft } from '@web/lib/use-draft.js';
import { useLeavePrompt } from '@web/lib/use-leave-prompt.js';
import { useUpdateProfile } from '../api/update-profile.js';
import { useImageChoice } from '../hooks/use-image-choice.js';
import {
  profileChanges,
  profileFormSchema,
  profileFormValues,
  profileTextFields,
  type ProfileFormInput,
  type ProfileFormOutput,
} from '../profile-form.js';
import { ImageField, type ImageFieldHandle } from './image-field.js';
import { longDateLabel } from '@web/lib/relative-time.js';

const altHint = 'Optional. Describe the image for people who use screen readers.';

const isProfileTextField = (name: string): name is (typeof profileTextFields)[number] =>
  profileTextFields.some((field) => field === name);

interface ProfileEditFormProps {
  user: UserDocument;
  /** Me.usernameChangeAvailableAt: when the username may next change (30-day rule). */
  usernameChangeAvailableAt: string | null;
  /** After a save: the new document and the one it replaced. */
  onSaved: (saved: UserDocument, previous: UserDocument) => void;
}

type Outcome = { kind: 'saved'; user: UserDocument } | { kind: 'unchanged' } | null;

/** A profile edit kept on the device: the text fields changed, and whether images were chosen. */
interface ProfileDraft {
  fields: Partial<Record<(typeof profileTextFields)[number], string>>;
  images: boolean;
}

const readProfileDraft = (value: unknown): ProfileDraft | null => {
  if (typeof value !== 'object' || value === null) return null;
  const stored: unknown = Reflect.get(value, 'fields');
  const fields: ProfileDraft['fields'] = {};
  for (const name of profileTextFields) {
    const text = draftText(stored, name);
    if (text !== null) fields[name] = text;
  }
  return Object.keys(fields).length === 0
    ? null
    : { fields, images: Reflect.get(value, 'images') === true };
};

/**
 * The profile editor (issue: profiles): names, username, bio, website, avatar and cover with their
 * descriptions. Validated with the server's own schema; only changed fields are sent.
 */
export function ProfileEditForm({
  user,
  usernameChangeAvailableAt,
  onSaved,
}: ProfileEditFormProps) {
  const update = useUpdateProfile();
  const [formError, setFormError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [avatar, avatarActions] = useImageChoice();
  const [cover, coverActions] = useImageChoice();
  const avatarInput = useRef<ImageFieldHandle>(null);
  const coverInput = useRef<ImageFieldHandle>(null);
  const [now] = useState(() => Date.now());
  const lockedUntil = usernameLockedUntil(usernameChangeAvailableAt, now);

  const values = useMemo(() => profileFormValues(user), [user]);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    reset,
    control,
    formState: { errors, isSubmitting, defaultValues },
  } = useForm<ProfileFormInput, unknown, ProfileFormOutput>({
    resolver: zodResolver(profileFormSchema),
    mode: 'onBlur',
    // A change arriving live (another tab, an administrator) updates the fields not being edited.
    values,
    resetOptions: { keepDirtyValues: true },
  });

  const [bio, avatarAlt, coverAlt] = useWatch({ control, name: ['bio', 'avatarAlt', 'coverAlt'] });

  // Issue: notifications, search and the everyday things §4: unsaved changes are kept as a draft on the
  // device, offered back here, and leaving with them asks first. Images are not kept in drafts.
  const draft = useDraft({ account: user.uid, target: 'profile', read: readProfileDraft });
  const [restored, setRestored] = useState(draft.restored);
  const current = useWatch({ control });
  const changedFields: ProfileDraft['fields'] = {};
  for (const name of profileTextFields) {
    const text = current[name];
    // Against the form's starting point, which a save or a live update moves along.
    if (typeof text === 'string' && text !== (defaultValues?.[name] ?? values[name])) {
      changedFields[name] = text;
    }
  }
  const textChanged = Object.keys(changedFields).length > 0;
  const imagesChanged = Boolean(avatar.file || avatar.remove || cover.file || cover.remove);
  const leave = useLeavePrompt({ dirty: textChanged || imagesChanged, kept: !imagesChanged });
  const draftJson = textChanged ? JSON.stringify(changedFields) : null;
  const keepDraft = useEffectEvent(() => {
    draft.save(textChanged ? { fields: changedFields, images: imagesChanged } : null);
  });
  // In the render's own task, before the next event: a form emptied and left at once must not leave its
  // unmount to keep the text it held a moment earlier.
  useLayoutEffect(() => {
    keepDraft();
  }, [draftJson, imagesChanged]);
  const restoredOnce = useRef(false);
  useEffect(() => {
    if (restoredOnce.current || !draft.restored) return;
    restoredOnce.current = true;
    for (const [name, text] of Object.entries(draft.restored.value.fields)) {
      // A username that may not change yet stays as it is.
      if (name === 'username' && lockedUntil !== null) continue;
      if (isProfileTextField(name)) setValue(name, text, { shouldDirty: true });
    }
  }, [draft.restored, lockedUntil, setValue]);

  const typeahead = useMentionTypeahead({
    setText: (text) => {
      setValue('bio', text, { shouldDirty: true });
    },
  });
  const { onBlur: bioBlur, onChange: bioChange, ...bioField } = register('bio');

  const save = async (output: ProfileFormOutput) => {
    setFormError(null);
    setOutcome(null);
    // A refused file is never sent: it has to be replaced or removed first (its message says why).
    const refused =
      avatar.file && avatar.error ? avatarInput : cover.file && cover.error ? coverInput : null;
    if (refused) {
      refused.current?.focus();
      return;
    }
    const changes = profileChanges({ current: user, values: output, avatar, cover });
    if (!changes) {
      setOutcome({ kind: 'unchanged' });
      return;
    }
    try {
      const saved = await update.mutateAsync({ user, ...changes });
      // The saved document is the new starting point; resetOptions' keepDirtyValues is for live updates only.
      reset(profileFormValues(saved), { keepDirtyValues: false });
      avatarActions.reset();
      coverActions.reset();
      draft.clear();
      leave.settle();
      setRestored(null);
      setOutcome({ kind: 'saved', user: saved });
      onSaved(saved, user);
    } catch (error) {
      setFormError(showServerErrors(error));
    }
  };

  /** Text-field errors go on their inputs, image errors on the file inputs; the rest is the alert. */
  function showServerErrors(error: unknown): string | null {
    if (!(error instanceof ApiError)) return applyServerErrors(error, setError, profileTextFields);
    const { avatar: avatarMessage, cover: coverMessage, ...textFields } = error.fields;
    if (avatarMessage) avatarActions.setError(avatarMessage);
    if (coverMessage) coverActions.setError(coverMessage);
    const imageFailed = avatarMessage !== undefined || coverMessage !== undefined;
    if (imageFailed && Object.keys(textFields).length === 0) {
      (avatarMessage ? avatarInput : coverInput).current?.focus();
      return null;
    }
    const rest = new ApiError({
      status: error.status,
      code: error.code,
      message: error.message,
      fields: textFields,
    });
    return applyServerErrors(rest, setError, profileTextFields);
  }

  const usernameHintText = lockedUntil
    ? usernameCooldownMessage(longDateLabel(lockedUntil))
    : `${usernameHint} ${usernameChangeHint}`;

  return (
    <FormShell
      busy={isSubmitting}
      error={formError}
      onSubmit={(event) => handleSubmit(save)(event)}
      className="form profile-form"
    >
      {leave.hosting ? <LeavePrompt /> : null}
      {restored ? (
        <DraftNote
          savedAt={restored.savedAt}
          imagesDropped={restored.value.images}
          onDiscard={() => {
            draft.clear();
            setRestored(null);
            reset(values, { keepDirtyValues: false });
          }}
        />
      ) : null}
      <section className="card form-section" aria-labelledby="profile-form-about">
        <h2 id="profile-form-about" className="form-section__title">
          About you
        </h2>
        <div className="form__row">
          <TextField
            label="First name"
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...register('firstName')}
          />
          <TextField
            label="Last name"
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...register('lastName')}
          />
        </div>
        <TextField
          label="Display name"
          hint="Shown when you leave your first and last name empty."
          autoComplete="nickname"
          error={errors.displayName?.message}
          {...register('displayName')}
        />
        <TextField
          label="Username"
          hint={usernameHintText}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          readOnly={lockedUntil !== null}
          error={errors.username?.message}
          {...register('username')}
        />
        <TextAreaField
          label="Bio"
          hint="A few words about yourself. Web addresses become links."
          rows={5}
          counter={textCounter(bio, limits.bio.max)}
          error={errors.bio?.message}
          {...bioField}
          {...typeahead.fieldProps}
          after={typeahead.popup}
          onChange={(event) => {
            void bioChange(event);
            typeahead.update(event.currentTarget);
          }}
          onBlur={(event) => {
            typeahead.fieldProps.onBlur();
            void bioBlur(event);
          }}
          onKeyDown={(event) => {
            typeahead.onKeyDown(event);
          }}
        />
        <TextField
          label="Website"
          hint="A web address starting with https:// or http://."
          type="url"
          inputMode="url"
          autoComplete="url"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="https://"
          error={errors.website?.message}
          {...register('website')}
        />
      </section>

      <section className="card form-section" aria-labelledby="profile-form-images">
        <h2 id="profile-form-images" className="form-section__title">
          Images
        </h2>
        <ImageField
          name="avatar"
          label="Avatar"
          noun="avatar"
          removeLabel="Remove avatar"
          hint="Shown as a 400 × 400 square, cropped to a circle."
          current={user.avatar}
          fallback={defaultImages.avatar}
          shape="round"
          choice={avatar}
          actions={avatarActions}
          handleRef={avatarInput}
        />
        {avatar.remove || (!avatar.file && !user.avatar) ? null : (
          <TextAreaField
            label="Avatar description"
            hint={altHint}
            rows={2}
            counter={textCounter(avatarAlt, limits.altText.max)}
            error={errors.avatarAlt?.message}
            {...register('avatarAlt')}
          />
        )}
        <ImageField
          name="cover"
          label="Cover image"
          noun="cover image"
          removeLabel="Remove cover"
          hint="Shown 1500 × 500 across the top of your profile."
          current={user.cover}
          fallback={defaultImages.cover}
          shape="wide"
          choice={cover}
          actions={coverActions}
          handleRef={coverInput}
        />
        {cover.remove || (!cover.file && !user.cover) ? null : (
          <TextAreaField
            label="Cover description"
            hint={altHint}
            rows={2}
            counter={textCounter(coverAlt, limits.altText.max)}
            error={errors.coverAlt?.message}
            {...register('coverAlt')}
          />
        )}
      </section>

      <div className="form__actions">
        <FormStatus
          tone={outcome?.kind === 'unchanged' ? 'info' : 'success'}
          autoClear={{
            notice: outcome,
            clear: () => {
              setOutcome(null);
            },
          }}
        >
          {outcome?.kind === 'saved' ? (
            <p>
              Profile saved. <Link to={profilePath(outcome.user)}>View your profile</Link>
            </p>
          ) : outcome?.kind === 'unchanged' ? (
            <p>Nothing to save: you haven&apos;t changed anything yet.</p>
          ) : null}
        </FormStatus>
        <SubmitButton busy={isSubmitting} label="Save" busyLabel="Saving…" block={false} />
      </div>
    </FormShell>
  );
}
