import type { Endpoint } from './endpoint.js';
import { accountEndpoints } from './endpoints/account.js';
import { adminDashboardEndpoints } from './endpoints/admin-dashboard.js';
import { adminInstanceEndpoints } from './endpoints/admin-instance.js';
import { adminUserEndpoints } from './endpoints/admin-users.js';
import { authEndpoints } from './endpoints/auth.js';
import { commentEndpoints } from './endpoints/comments.js';
import { followEndpoints } from './endpoints/follows.js';
import { instanceEndpoints } from './endpoints/instance.js';
import { moderationEndpoints } from './endpoints/moderation.js';
import { notificationEndpoints } from './endpoints/notifications.js';
import { postEndpoints } from './endpoints/posts.js';
import { profileEndpoints } from './endpoints/profiles.js';
import { relationshipEndpoints } from './endpoints/relationships.js';
import { searchEndpoints } from './endpoints/search.js';
import { userEndpoints } from './endpoints/users.js';

/**
 * Every endpoint of the app, by operationId (ADR 0012). The server registers each from its module's
 * routes file; the web app imports the one module it calls (endpoints/*.ts) so that a page only
 * downloads the definitions it uses; the OpenAPI document and the contract tests walk this list.
 */
export const endpoints = {
  ...authEndpoints,
  ...accountEndpoints,
  ...userEndpoints,
  ...profileEndpoints,
  ...followEndpoints,
  ...postEndpoints,
  ...commentEndpoints,
  ...notificationEndpoints,
  ...searchEndpoints,
  ...relationshipEndpoints,
  ...instanceEndpoints,
  ...moderationEndpoints,
  ...adminDashboardEndpoints,
  ...adminInstanceEndpoints,
  ...adminUserEndpoints,
} as const;

export const endpointList: readonly Endpoint[] = Object.values(endpoints);
