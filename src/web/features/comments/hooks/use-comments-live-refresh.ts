import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Post } from '@shared/schemas/post.js';
import { commentKeys } from '../comment-keys.js';

/**
 * issue §7: the post document (topic posts/{id}) carries `commentsRevision`, bumped by every comment
 * written, edited, liked or deleted. When it moves, every list of this post's comments is read again,
 * so other people's comments show within a second, without a reload.
 */
export function useCommentsLiveRefresh(post: Pick<Post, 'id' | 'commentsRevision'>): void {
  const queryClient = useQueryClient();
  const seen = useRef({ id: post.id, revision: post.commentsRevision });
  useEffect(() => {
    const last = seen.current;
    seen.current = { id: post.id, revision: post.commentsRevision };
    if (last.id !== post.id || last.revision === post.commentsRevision) return;
    void queryClient.invalidateQueries({ queryKey: commentKeys.ofPost(post.id) });
  }, [queryClient, post.id, post.commentsRevision]);
}
