import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PostView } from '@shared/schemas/post.js';
import { apiPost, apiPostForm } from '@web/lib/api-client.js';
import { addOwnPost } from '../post-cache.js';

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
 * The multipart form of a post with images (shared postImageFields: image0…image3, with alt0…alt3),
 * in display order. Text fields go before the files so a streaming reader has them first. The
 * field names are spelled out here because the shared schema module would bring zod into the feed.
 */
export function newPostForm({ body, images }: CreatePostInput): FormData {
  const form = new FormData();
  form.set('body', body);
  images.forEach((image, index) => {
    const alt = image.alt.trim();
    if (alt) form.set(`alt${String(index)}`, alt);
  });
  images.forEach((image, index) => {
    form.set(`image${String(index)}`, image.file, image.file.name);
  });
  return form;
}

/** POST /api/posts: JSON for text alone, multipart when images come along. */
export function createPost(input: CreatePostInput): Promise<PostView> {
  if (input.images.length === 0) return apiPost<PostView>('/api/posts', { body: input.body });
  return apiPostForm<PostView>('/api/posts', newPostForm(input));
}

/** Writes a post; on success it is on top of the viewer's loaded feeds and profile at once. */
export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPost,
    onSuccess: (post) => {
      addOwnPost(queryClient, post);
    },
  });
}
