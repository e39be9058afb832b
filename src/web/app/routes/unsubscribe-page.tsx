import { useParams } from 'react-router';
import { UnsubscribePanel } from '@web/features/notifications/components/unsubscribe-panel.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/** /unsubscribe/{token} (issue: notifications §2): public; the mail's link is the proof. */
export function UnsubscribePage() {
  const { token = '' } = useParams();
  usePageTitle('Unsubscribe');
  return (
    <div className="page page--narrow unsubscribe-page">
      <UnsubscribePanel key={token} token={token} />
    </div>
  );
}
