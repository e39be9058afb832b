import { moderationEndpoints as api } from '@shared/contract/endpoints/moderation.js';
import type { ModerationState } from '@shared/schemas/report.js';
import { callApi } from '@web/lib/api-client.js';

/** GET /api/admin/moderation-state: the `moderation` topic's document, read over HTTP. */
export function getModerationState(signal?: AbortSignal): Promise<ModerationState> {
  return callApi(api.getModerationState, { signal });
}
