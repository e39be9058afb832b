import { describe, it } from 'vitest';
import { fillPath } from '@shared/contract/endpoint.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { expectKeptAliveToggle } from '@web/test/fetch-stub.js';
import { likePost } from './like-post.js';

describe('likePost', () => {
  it('likes with PUT and unlikes with DELETE, each kept alive past a reload', async () => {
    await expectKeptAliveToggle(
      (liked) => likePost({ postId: '12', liked }),
      (liked) => ({ liked, likeCount: liked ? 3 : 2 }),
      fillPath(postEndpoints.likePost.path, { postId: '12' }),
    );
  });
});
