import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { useLegalDocument } from '@web/features/legal/api/get-legal-document.js';
import { LegalDocumentView } from '@web/features/legal/components/legal-document-view.js';
import type { LegalDocumentKind } from '@web/features/legal/legal-keys.js';
import { usePageTitle } from '../hooks/use-page-title.js';

const titles: Record<LegalDocumentKind, string> = {
  tos: 'Terms of Service',
  privacy: 'Privacy Policy',
};

function LegalPage({ kind }: { kind: LegalDocumentKind }) {
  const query = useLegalDocument(kind);
  usePageTitle(query.data?.title ?? titles[kind]);
  if (query.isPending) {
    return (
      <div className="page page--prose" role="status" aria-label={`Loading the ${titles[kind]}`}>
        <span className="skeleton skeleton--line skeleton--title" />
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--line skeleton--short" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="page page--narrow">
        <LoadErrorPanel
          title={`We couldn't load the ${titles[kind]}`}
          error={query.error}
          onRetry={() => {
            void query.refetch();
          }}
        />
      </div>
    );
  }
  return (
    <div className="page page--prose">
      <LegalDocumentView document={query.data} />
    </div>
  );
}

/** spec §2: /tos, open. */
export function TermsPage() {
  return <LegalPage kind="tos" />;
}

/** spec §2: /privacy, open. */
export function PrivacyPage() {
  return <LegalPage kind="privacy" />;
}
