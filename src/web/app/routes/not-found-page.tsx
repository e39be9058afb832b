import { NotFoundContent } from '../errors/error-content.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/** Unknown addresses (spec §2 leaves this page's design to us). */
export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="page page--narrow">
      <NotFoundContent />
    </div>
  );
}
