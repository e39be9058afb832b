import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EndpointInput } from '@shared/contract/endpoint.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { postAltFields, postImageFields, type PostImageField } from '@shared/post-fields.js';
import type { PostView } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import { hashtagsIn } from '@web/lib/rich-text.js';
import { addOwnPost } from '../post-cache.js';

/** The text fields of a new post, as the contract takes them. */
type CreatePostFields = EndpointInput<typeof postEndpoints.createPost>['body'];

export interface NewPostImage {
  file: File;
  /** The image's description; '' for none. */
  alt: string;
}

export interface CreatePostInput {
  body: string;
  images: readonly NewPostImage[];
}

/**
 * POST /api/posts: JSON for text alone, multipart when images come along (image0…image3 with their
 * descriptions alt0…alt3, in display order).
 */
export function createPost({ body, images }: CreatePostInput): Promise<PostView> {
  const fields: CreatePostFields = { body };
  const files: Partial<Record<PostImageField, File>> = {};
  images.forEach((image, index) => {
    const fileField = postImageFields[index];
    const altField = postAltFields[index];
    if (!fileField || !altField) return;
    const alt = image.alt.trim();
    if (alt) fields[altField] = alt;
    files[fileField] = image.file;
  });
  return callApi(postEndpoints.createPost, { body: fields, files });
}

/**
 * Writes a post; on success it is on top of the viewer's loaded feeds and profile at once, its hashtags'
 * feeds among them. A post with an address waits for the link finder to read its hashtags (ADR 0054).
 */
export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPost,
    onSuccess: async (post) => {
      addOwnPost(queryClient, post, await hashtagsIn(post.body));
    },
  });
}
