import { queryOptions, useQuery } from '@tanstack/react-query';
import { instanceEndpoints as api } from '@shared/contract/endpoints/instance.js';
import type { LegalDocument } from '@shared/schemas/instance.js';
import { callApi } from '@web/lib/api-client.js';
import { legalKeys, type LegalDocumentKind } from '../legal-keys.js';

/** GET /api/legal/tos and GET /api/legal/privacy */
export function getLegalDocument(
  kind: LegalDocumentKind,
  signal?: AbortSignal,
): Promise<LegalDocument> {
  return callApi(api.getLegalDocument, { params: { name: kind }, signal });
}

export function getLegalDocumentQueryOptions(kind: LegalDocumentKind) {
  return queryOptions({
    queryKey: legalKeys.document(kind),
    queryFn: ({ signal }) => getLegalDocument(kind, signal),
    staleTime: 10 * 60_000,
  });
}

export function useLegalDocument(kind: LegalDocumentKind) {
  return useQuery(getLegalDocumentQueryOptions(kind));
}
