import type { Comment } from '../../../shared/schemas/post.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { CommentRow } from './comments.repository.js';

/** Turns comment rows into the contract's comments, for HTTP answers and the lists behind live updates. */
export class CommentPresenter {
  /** `mediaUrl` maps a storage key to its public URL (local folder or S3). */
  constructor(private readonly mediaUrl: (key: string) => string) {}

  comment(row: CommentRow, liked: boolean): Comment {
    return {
      id: row.id,
      postId: row.postId,
      parentId: row.parentId,
      author: presentAuthor(row, this.mediaUrl),
      body: row.body,
      createdAt: row.createdAt,
      editedAt: row.editedAt,
      likeCount: row.likeCount,
      replyCount: row.replyCount,
      liked,
      removal: row.removedAt ? { reason: row.removalReason ?? '', at: row.removedAt } : null,
    };
  }
}
