import { Link } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import type { AdminUserRow } from '@shared/schemas/admin-user.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { fullTimeLabel, relativeTimeLabel } from '@web/lib/relative-time.js';
import { useNow } from '@web/lib/use-now.js';
import { UserBadges } from './user-badges.js';

/**
 * Accounts as a table on wide screens and as cards on narrow ones (the same markup: each row is a card
 * below 40rem). Each links to its detail page.
 */
export function AdminUserList({ rows }: { rows: readonly AdminUserRow[] }) {
  const now = useNow();
  return (
    <table className="admin-user-table">
      <caption className="visually-hidden">Accounts, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Person</th>
          <th scope="col">Email</th>
          <th scope="col">Role and state</th>
          <th scope="col">Joined</th>
          <th scope="col">Last active</th>
          <th scope="col">Open reports</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.uid}>
            <th scope="row" className="admin-user-table__person">
              <Avatar user={row} alt="" size="sm" />
              <span>
                <Link to={`/admin/users/${row.uid}`} className="admin-user-table__name">
                  {displayNameOf(row)}
                </Link>
                <span className="admin-user-table__username">@{row.username ?? '—'}</span>
              </span>
            </th>
            <td className="admin-user-table__email" data-label="Email">
              {row.email}
            </td>
            <td data-label="Role and state">
              <UserBadges role={row.role} state={row.state} />
            </td>
            <td data-label="Joined">
              <time dateTime={row.createdAt} title={fullTimeLabel(row.createdAt)}>
                {relativeTimeLabel(row.createdAt, now)}
              </time>
            </td>
            <td data-label="Last active">
              {row.lastActiveAt ? (
                <time dateTime={row.lastActiveAt} title={fullTimeLabel(row.lastActiveAt)}>
                  {relativeTimeLabel(row.lastActiveAt, now)}
                </time>
              ) : (
                'Never'
              )}
            </td>
            <td data-label="Open reports">
              {row.openReports > 0 ? (
                <span className="badge admin-badge admin-badge--reports">{row.openReports}</span>
              ) : (
                '0'
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
