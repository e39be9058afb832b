import { describe, it } from 'vitest';
import { fillPath } from '@shared/contract/endpoint.js';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import { expectKeptAliveToggle } from '@web/test/fetch-stub.js';
import { likeComment } from './like-comment.js';

describe('likeComment', () => {
  it('likes with PUT and takes the like back with DELETE, each kept alive past a reload', async () => {
    await expectKeptAliveToggle(
      (liked) => likeComment({ commentId: '9', liked }),
      (liked) => ({ liked, likeCount: liked ? 1 : 0 }),
      fillPath(commentEndpoints.likeComment.path, { commentId: '9' }),
    );
  });
});
