import { useMutation, useQueryClient } from '@tanstack/react-query';
import { profileEndpoints as api } from '@shared/contract/endpoints/profiles.js';
import type { ProfileImageField, ProfileUpdateInput } from '@shared/schemas/profile.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { callApi } from '@web/lib/api-client.js';
import { writeUserSnapshotToCache } from '../user-cache.js';
import { userKeys } from '../user-keys.js';

export interface UpdateProfileInput {
  /** The document being edited, as the form saw it. */
  user: UserDocument;
  /** Only the changed fields (profile-form.ts). */
  body: ProfileUpdateInput;
  /** The newly chosen images. */
  files?: Partial<Record<ProfileImageField, File>>;
}

/**
 * PATCH /api/users/:uid/profile: JSON for text alone, multipart/form-data when an image comes along;
 * answers the updated document.
 */
export function updateProfile({ user, body, files }: UpdateProfileInput): Promise<UserDocument> {
  return callApi(api.updateProfile, { params: { uid: user.uid }, body, files });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onMutate: ({ user }) => {
      // The live document may carry a new username before this answer does. The edit page's owner
      // guard then looks up the name in its address; answering that from the cache (the name is
      // this user's, and redirects here after a rename) keeps the page from flashing a loading screen.
      if (user.username) {
        const key = userKeys.byUsername(user.username);
        if (queryClient.getQueryData(key) === undefined) queryClient.setQueryData(key, user);
      }
    },
    onSuccess: (saved, { user }) => {
      writeUserSnapshotToCache(queryClient, saved.uid, saved);
      if (saved.username) queryClient.setQueryData(userKeys.byUsername(saved.username), saved);
      // The old name redirects to this account for 90 days (issue: profiles).
      if (user.username && user.username !== saved.username) {
        queryClient.setQueryData(userKeys.byUsername(user.username), saved);
      }
    },
  });
}
