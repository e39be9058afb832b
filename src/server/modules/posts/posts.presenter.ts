import type { Post, PostImage, PostVersion } from '../../../shared/schemas/post.js';
import { parseRenditions, postImageSources } from '../../media/renditions.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { PostMediaRecord, PostRecord } from './posts.repository.js';

/** Turns post rows into the contract's documents: the one place that does, so HTTP and sockets agree. */
export class PostPresenter {
  constructor(private readonly mediaUrl: (key: string) => string) {}

  /** Groups images by post id (they arrive ordered by post and position from one query). */
  imagesByPost(media: PostMediaRecord[]): Map<string, PostImage[]> {
    const byPost = new Map<string, PostImage[]>();
    for (const row of media) {
      const renditions = parseRenditions(row.renditions);
      const feed = renditions.feed;
      const full = renditions.full ?? feed;
      if (!feed || !full) continue;
      let images = byPost.get(row.postId);
      if (!images) byPost.set(row.postId, (images = []));
      images.push({
        id: row.id,
        url: this.mediaUrl(feed.key),
        sources: postImageSources(renditions, this.mediaUrl),
        fullUrl: this.mediaUrl(full.key),
        width: full.width,
        height: full.height,
        alt: row.alt,
      });
    }
    return byPost;
  }

  post(record: PostRecord, images: PostImage[]): Post {
    return {
      id: record.id,
      author: presentAuthor(record, this.mediaUrl),
      body: record.body,
      images,
      createdAt: record.createdAt,
      editedAt: record.editedAt,
      likeCount: record.likeCount,
      commentCount: record.commentCount,
      commentsRevision: record.commentsRevision,
      removal: record.removedAt
        ? { reason: record.removalReason ?? '', at: record.removedAt }
        : null,
    };
  }

  version(row: { body: string; createdAt: string }): PostVersion {
    return { body: row.body, createdAt: row.createdAt };
  }
}
