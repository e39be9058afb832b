import { DashboardView } from '@web/features/admin/components/dashboard-view.js';
import { usePageTitle } from '../../hooks/use-page-title.js';

/** /admin: the console's dashboard (issue: moderation and administration §4). */
export function AdminDashboardPage() {
  usePageTitle('Dashboard');
  return (
    <div className="dashboard">
      <h1 className="dashboard__heading">Dashboard</h1>
      <DashboardView />
    </div>
  );
}
