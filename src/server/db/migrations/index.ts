import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './0001-accounts.js';
import * as profiles from './0002-profiles-and-media.js';
import * as posts from './0003-posts.js';
import * as pendingUploads from './0004-pending-uploads.js';
import * as notifications from './0005-notifications.js';
import * as search from './0006-search.js';
import * as moderation from './0007-moderation.js';
import * as searchMerging from './0008-search-merging.js';
import * as searchBacklog from './0009-search-backlog.js';
import * as lighterWrites from './0010-lighter-writes.js';
import * as searchTerms from './0011-search-terms.js';
import * as roomForCounts from './0012-room-for-counts.js';
import * as likeGroupsByPost from './0013-like-groups-by-post.js';
import * as likesToldWhenRead from './0014-likes-told-when-read.js';

/** Every migration in order. Static imports, so the same list runs from source and from the build. */
const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-profiles-and-media': profiles,
  '0003-posts': posts,
  '0004-pending-uploads': pendingUploads,
  '0005-notifications': notifications,
  '0006-search': search,
  '0007-moderation': moderation,
  '0008-search-merging': searchMerging,
  '0009-search-backlog': searchBacklog,
  '0010-lighter-writes': lighterWrites,
  '0011-search-terms': searchTerms,
  '0012-room-for-counts': roomForCounts,
  '0013-like-groups-by-post': likeGroupsByPost,
  '0014-likes-told-when-read': likesToldWhenRead,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
