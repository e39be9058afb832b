// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@shared/roles.js';
import { signedIn, signedOut, renderRoute } from '@web/test/render-route.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { AdminLayout } from './admin-layout.js';

vi.mock('@web/features/admin/use-moderation-counts.js', () => ({
  useModerationCounts: () => ({ openReports: 3, openAppeals: 0, pendingSignups: 0, revision: 1 }),
}));
vi.mock('@web/features/instance/api/get-instance.js', () => ({
  useInstanceName: () => 'Hearth Test',
}));

function as(role: Role, overrides: { active?: boolean; suspended?: boolean } = {}) {
  const state = signedIn();
  return { ...state, user: makeUserDocument({ role, active: true, ...overrides }) };
}

const show = (auth: ReturnType<typeof signedIn>, url = '/admin') =>
  renderRoute({ path: '/admin/*', url, element: <AdminLayout />, auth });

describe('the console layout', () => {
  afterEach(cleanup);

  it('is the not-found page for visitors, users and staff who may not act', () => {
    for (const auth of [
      signedOut,
      as('user'),
      as('moderator', { active: false }),
      as('admin', { suspended: true }),
    ]) {
      show(auth);
      expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
      expect(screen.queryByRole('navigation')).toBeNull();
      expect(document.body.textContent).not.toMatch(/moderation|console/i);
      cleanup();
    }
  });

  it('waits for the session', () => {
    show({ ...signedOut, isLoading: true });
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it("gives moderators the console's sections, marking the current one", () => {
    show(as('moderator'), '/admin/reports');
    const nav = screen.getByRole('navigation', { name: 'Moderation console' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Dashboard',
      'Reports3, 3 open',
      'Users',
      'Audit log',
    ]);
    expect(
      within(nav)
        .getByRole('link', { name: /^Reports\s*,\s*3 open$/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(
      within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current'),
    ).toBeNull();
  });

  it('adds the instance settings for administrators', () => {
    show(as('admin'));
    const nav = screen.getByRole('navigation', { name: 'Moderation console' });
    expect(within(nav).getByRole('link', { name: 'Instance' }).getAttribute('href')).toBe(
      '/admin/instance',
    );
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });
});
