import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { limits } from '@shared/limits.js';
import type { FeedSignal, Post, PostView } from '@shared/schemas/post.js';
import {
  compareIds,
  insertNewPosts,
  mergePending,
  newestKnownId,
  newestPostId,
  postIdsOf,
  withPostUpdate,
  type PostPages,
} from '../post-cache.js';
import { useFeedSignal } from './use-feed-signal.js';
import { isHiddenAuthor } from '@web/lib/hidden-authors.js';

interface NewPostsOptions {
  queryKey: QueryKey;
  data: PostPages | undefined;
  /** Reads the list's posts newer than `after`, newest first (the feeds, through `?after=`). */
  fetchNewer?: (after: string) => Promise<PostView[]>;
  /** Takes a created post straight from the signal when it belongs (a user's posts). */
  accepts?: (post: Post) => boolean;
}

export interface NewPosts {
  /** Posts waiting behind the button, newest first. */
  count: number;
  /** More arrived than one request brings (limits.newPostsMax): showing them reloads from the top. */
  overflow: boolean;
  /** Puts the waiting posts on top of the list; answers the id of the newest, to move the reader to. */
  reveal: () => Promise<string | null>;
}

/**
 * Issue: posts §6. New posts announced on the `feed` topic wait behind a "Show N new posts" button
 * and never move what the reader is looking at; edits and deletions reach the waiting posts too.
 */
export function useNewPosts({ queryKey, data, fetchNewer, accepts }: NewPostsOptions): NewPosts {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PostView[]>([]);
  const [overflow, setOverflow] = useState(false);
  const latest = useRef({ data, pending });
  useEffect(() => {
    latest.current = { data, pending };
  });
  const fetching = useRef<{ running: boolean; again: boolean }>({ running: false, again: false });
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const fetchFrom = async (after: string, read: (after: string) => Promise<PostView[]>) => {
    const state = fetching.current;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    try {
      const posts = await read(after);
      if (!alive.current) return;
      const shown = postIdsOf(latest.current.data);
      // Blocked and muted people's posts never wait behind the button (ADR 0022).
      const seen = posts.filter((post) => !isHiddenAuthor(post.author.uid));
      setPending((previous) => mergePending(previous, seen, shown));
      if (posts.length >= limits.newPostsMax) setOverflow(true);
    } catch {
      // A failed check is not worth an error on screen: the next signal (or reconnect) checks again.
    } finally {
      state.running = false;
      if (state.again && alive.current) {
        state.again = false;
        const top = newestPostId(latest.current.data);
        if (top) void fetchFrom(top, read);
      }
    }
  };

  /** The head moved past what this list knows: see what is new for it. */
  const check = (head: string | null) => {
    const current = latest.current.data;
    if (!current || head === null) return;
    const top = newestPostId(current);
    if (top === null) {
      // An empty list has nothing to keep still: load it again.
      void queryClient.invalidateQueries({ queryKey, exact: true });
      return;
    }
    const known = newestKnownId(top, latest.current.pending);
    if (known !== null && compareIds(head, known) <= 0) return;
    if (fetchNewer) void fetchFrom(top, fetchNewer);
  };

  useFeedSignal((signal: FeedSignal, isChange: boolean) => {
    const change = isChange ? signal.change : null;
    if (change?.kind === 'updated') {
      setPending((previous) =>
        previous.some((post) => post.id === change.post.id)
          ? previous.map((post) =>
              post.id === change.post.id ? withPostUpdate(post, change.post) : post,
            )
          : previous,
      );
      return;
    }
    if (change?.kind === 'deleted') {
      setPending((previous) =>
        previous.some((post) => post.id === change.postId)
          ? previous.filter((post) => post.id !== change.postId)
          : previous,
      );
      return;
    }
    if (change?.kind === 'created' && accepts) {
      if (!accepts(change.post) || isHiddenAuthor(change.post.author.uid)) return;
      const current = latest.current.data;
      if (!current) return;
      if (newestPostId(current) === null) {
        void queryClient.invalidateQueries({ queryKey, exact: true });
        return;
      }
      const post: PostView = { ...change.post, liked: false };
      setPending((previous) => mergePending(previous, [post], postIdsOf(current)));
      return;
    }
    check(signal.head);
  });

  const reveal = async (): Promise<string | null> => {
    const waiting = latest.current.pending;
    if (overflow) {
      setPending([]);
      setOverflow(false);
      await queryClient.resetQueries({ queryKey, exact: true });
      const data = queryClient.getQueryData<PostPages>(queryKey);
      return newestPostId(data);
    }
    if (waiting.length === 0) return null;
    queryClient.setQueryData<PostPages>(queryKey, (current) =>
      current ? insertNewPosts(current, waiting) : current,
    );
    setPending([]);
    return waiting[0]?.id ?? null;
  };

  return { count: pending.length, overflow, reveal };
}
