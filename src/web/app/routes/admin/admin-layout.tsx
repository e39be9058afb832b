import '@web/styles/admin.css';
import type { ReactNode } from 'react';
import { NavLink, Outlet } from 'react-router';
import type { UserDocument } from '@shared/schemas/user.js';
import { isStaff } from '@shared/roles.js';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { useModerationCounts } from '@web/features/admin/use-moderation-counts.js';
import { useInstanceName } from '@web/features/instance/api/get-instance.js';
import { unreadBadgeText } from '@web/features/notifications/unread-state.js';
import { getModerationState } from '@web/features/reports/api/get-moderation-state.js';
import { NotFoundPage } from '../not-found-page.js';

/** Who may open the console: an active moderator or administrator who is not suspended (ADR 0021). */
export function mayUseConsole(user: UserDocument | null): user is UserDocument {
  return user !== null && isStaff(user.role) && user.active && !user.suspended;
}

interface SectionLinkProps {
  to: string;
  end?: boolean;
  children: ReactNode;
  /** A count shown beside the name, and read out with it (`label`). */
  count?: { value: number; label: string } | undefined;
}

function SectionLink({ to, end, children, count }: SectionLinkProps) {
  const badge = count ? unreadBadgeText(count.value) : null;
  return (
    <li className="admin-nav__item">
      <NavLink to={to} end={end} className="admin-nav__link">
        <span>{children}</span>
        {badge === null || !count ? null : (
          <span className="admin-nav__badge">
            <span aria-hidden="true">{badge}</span>
            <span className="visually-hidden">
              , {badge} {count.label}
            </span>
          </span>
        )}
      </NavLink>
    </li>
  );
}

function Console({ user }: { user: UserDocument }) {
  const instanceName = useInstanceName();
  const counts = useModerationCounts(true, getModerationState);
  return (
    <div className="admin">
      <header className="admin__header">
        <p className="admin__title">Moderation</p>
        <p className="admin__instance">{instanceName}</p>
      </header>
      <nav className="admin-nav" aria-label="Moderation console">
        <ul className="admin-nav__list">
          <SectionLink to="/admin" end>
            Dashboard
          </SectionLink>
          <SectionLink
            to="/admin/reports"
            count={counts ? { value: counts.openReports, label: 'open' } : undefined}
          >
            Reports
          </SectionLink>
          <SectionLink
            to="/admin/users"
            count={
              counts ? { value: counts.pendingSignups, label: 'awaiting approval' } : undefined
            }
          >
            Users
          </SectionLink>
          {user.role === 'admin' ? <SectionLink to="/admin/instance">Instance</SectionLink> : null}
          <SectionLink to="/admin/audit">Audit log</SectionLink>
        </ul>
      </nav>
      <div className="admin__content">
        <Outlet />
      </div>
    </div>
  );
}

/**
 * The console at /admin (issue: moderation and administration §4): its header, its sections and the
 * section's page. Anyone else gets the not-found page, which says nothing of the console.
 */
export function AdminLayout() {
  const auth = useAuth();
  if (auth.isLoading) return <LoadingScreen />;
  if (!mayUseConsole(auth.user)) return <NotFoundPage />;
  return <Console user={auth.user} />;
}
