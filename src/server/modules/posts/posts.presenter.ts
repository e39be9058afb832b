import type { Post, PostImage, PostVersion } from '../../../shared/schemas/post.js';
import { parseRenditions } from '../../media/renditions.js';
import { presentAuthor } from '../users/authors.js';
import { isoTimestamp } from '../users/users.presenter.js';
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
      const key = String(row.postId);
      let images = byPost.get(key);
      if (!images) byPost.set(key, (images = []));
      images.push({
        id: row.id,
        url: this.mediaUrl(feed.key),
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
      id: String(record.id),
      author: presentAuthor(record, this.mediaUrl),
      body: record.body,
      images,
      createdAt: isoTimestamp(record.createdAt),
      editedAt: record.editedAt === null ? null : isoTimestamp(record.editedAt),
      likeCount: record.likeCount,
      commentCount: record.commentCount,
      commentsRevision: record.commentsRevision,
    };
  }

  version(row: { body: string; createdAt: Date | string }): PostVersion {
    return { body: row.body, createdAt: isoTimestamp(row.createdAt) };
  }
}
