export type LegalDocumentKind = 'tos' | 'privacy';

/** Query keys of the legal documents. */
export const legalKeys = {
  all: ['legal'] as const,
  document: (kind: LegalDocumentKind) => [...legalKeys.all, kind] as const,
};
