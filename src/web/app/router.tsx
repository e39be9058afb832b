import { createBrowserRouter } from 'react-router';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { AppErrorScreen, RouteErrorPage } from './errors/route-error-page.js';
import {
  ActiveOnly,
  GuestOnly,
  OwnerOnly,
  SettingsProfileRedirect,
} from './guards/route-guards.js';
import { AppShell } from './layout/app-shell.js';
import { lazyPage } from './lazy-page.js';

const feedPage = lazyPage(
  () => import('./routes/feed-page.js'),
  (m) => m.FeedPage,
);
const signInPage = lazyPage(
  () => import('./routes/sign-in-page.js'),
  (m) => m.SignInPage,
);
const signUpPage = lazyPage(
  () => import('./routes/sign-up-page.js'),
  (m) => m.SignUpPage,
);
const signOutPage = lazyPage(
  () => import('./routes/sign-out-page.js'),
  (m) => m.SignOutPage,
);
const postPage = lazyPage(
  () => import('./routes/post-page.js'),
  (m) => m.PostPage,
);
const profilePage = lazyPage(
  () => import('./routes/profile-page.js'),
  (m) => m.ProfilePage,
);
const editProfilePage = lazyPage(
  () => import('./routes/edit-profile-page.js'),
  (m) => m.EditProfilePage,
);
const followersPage = lazyPage(
  () => import('./routes/follow-list-page.js'),
  (m) => m.FollowersPage,
);
const followingPage = lazyPage(
  () => import('./routes/follow-list-page.js'),
  (m) => m.FollowingPage,
);
const userByUidPage = lazyPage(
  () => import('./routes/user-by-uid-page.js'),
  (m) => m.UserByUidPage,
);
const resetPasswordPage = lazyPage(
  () => import('./routes/reset-password-page.js'),
  (m) => m.ResetPasswordPage,
);
const termsPage = lazyPage(
  () => import('./routes/legal-page.js'),
  (m) => m.TermsPage,
);
const privacyPage = lazyPage(
  () => import('./routes/legal-page.js'),
  (m) => m.PrivacyPage,
);
const accountSettingsPage = lazyPage(
  () => import('./routes/account-settings-page.js'),
  (m) => m.AccountSettingsPage,
);
const notificationsPage = lazyPage(
  () => import('./routes/notifications-page.js'),
  (m) => m.NotificationsPage,
);
const notificationSettingsPage = lazyPage(
  () => import('./routes/notification-settings-page.js'),
  (m) => m.NotificationSettingsPage,
);
const unsubscribePage = lazyPage(
  () => import('./routes/unsubscribe-page.js'),
  (m) => m.UnsubscribePage,
);
const searchPage = lazyPage(
  () => import('./routes/search-page.js'),
  (m) => m.SearchPage,
);
const tagPage = lazyPage(
  () => import('./routes/tag-page.js'),
  (m) => m.TagPage,
);
const privacySettingsPage = lazyPage(
  () => import('./routes/privacy-settings-page.js'),
  (m) => m.PrivacySettingsPage,
);
const suspensionPage = lazyPage(
  () => import('./routes/suspension-page.js'),
  (m) => m.SuspensionPage,
);
const moderationLogPage = lazyPage(
  () => import('./routes/moderation-log-page.js'),
  (m) => m.ModerationLogPage,
);
const adminLayout = lazyPage(
  () => import('./routes/admin/admin-layout.js'),
  (m) => m.AdminLayout,
);
const adminDashboardPage = lazyPage(
  () => import('./routes/admin/admin-dashboard-page.js'),
  (m) => m.AdminDashboardPage,
);
const adminReportsPage = lazyPage(
  () => import('./routes/admin/admin-reports-page.js'),
  (m) => m.AdminReportsPage,
);
const adminUsersPage = lazyPage(
  () => import('./routes/admin/admin-users-page.js'),
  (m) => m.AdminUsersPage,
);
const adminUserPage = lazyPage(
  () => import('./routes/admin/admin-user-page.js'),
  (m) => m.AdminUserPage,
);
const adminInstancePage = lazyPage(
  () => import('./routes/admin/admin-instance-page.js'),
  (m) => m.AdminInstancePage,
);
const adminAuditPage = lazyPage(
  () => import('./routes/admin/admin-audit-page.js'),
  (m) => m.AdminAuditPage,
);
const notFoundPage = lazyPage(
  () => import('./routes/not-found-page.js'),
  (m) => m.NotFoundPage,
);

/** spec §2 route table, with its guards. Static segments outrank `:username`, so no name shadows a route. */
export function createAppRouter() {
  return createBrowserRouter([
    {
      id: 'root',
      element: <AppShell />,
      errorElement: <AppErrorScreen />,
      // spec §1: the first load shows the logo loading screen until the page's code is in.
      hydrateFallbackElement: <LoadingScreen variant="page" />,
      children: [
        {
          // Page errors render inside the shell, so the navigation bar stays usable.
          errorElement: <RouteErrorPage />,
          children: [
            { index: true, lazy: feedPage },
            { path: 'feed', lazy: feedPage },
            {
              element: <GuestOnly />,
              children: [
                { path: 'signin', lazy: signInPage },
                { path: 'login', lazy: signInPage },
                { path: 'register', lazy: signUpPage },
                { path: 'signup', lazy: signUpPage },
              ],
            },
            {
              element: <ActiveOnly />,
              children: [
                { path: 'logout', lazy: signOutPage },
                { path: 'signout', lazy: signOutPage },
              ],
            },
            { path: 'post/:postId', lazy: postPage },
            { path: 'reset-password', lazy: resetPasswordPage },
            { path: 'tos', lazy: termsPage },
            { path: 'privacy', lazy: privacyPage },
            { path: 'user/:uid', lazy: userByUidPage },
            { path: 'settings/profile', element: <SettingsProfileRedirect /> },
            // Signed-in users only, except to follow an email confirmation link: the page guards itself.
            { path: 'settings/account', lazy: accountSettingsPage },
            // Signed-in users only: the pages send visitors to /login themselves.
            { path: 'notifications', lazy: notificationsPage },
            { path: 'settings/notifications', lazy: notificationSettingsPage },
            // Blocks and mutes; a suspended account's reason and appeal (ADR 0021).
            { path: 'settings/privacy', lazy: privacySettingsPage },
            { path: 'settings/suspension', lazy: suspensionPage },
            // Public when an administrator publishes it; otherwise the page says it is not.
            { path: 'about/moderation', lazy: moderationLogPage },
            // Moderators and administrators; everyone else gets the not-found page (the layout decides).
            {
              path: 'admin',
              lazy: adminLayout,
              children: [
                { index: true, lazy: adminDashboardPage },
                { path: 'reports', lazy: adminReportsPage },
                { path: 'users', lazy: adminUsersPage },
                { path: 'users/:uid', lazy: adminUserPage },
                { path: 'instance', lazy: adminInstancePage },
                { path: 'audit', lazy: adminAuditPage },
              ],
            },
            // Public: a mail's unsubscribe link works without signing in.
            { path: 'unsubscribe/:token', lazy: unsubscribePage },
            { path: 'search', lazy: searchPage },
            { path: 'tags/:tag', lazy: tagPage },
            { path: 'ym/:username', lazy: profilePage },
            { path: ':username', lazy: profilePage },
            {
              path: ':username/edit-profile',
              element: <OwnerOnly />,
              children: [{ index: true, lazy: editProfilePage }],
            },
            { path: ':username/followers', lazy: followersPage },
            { path: ':username/following', lazy: followingPage },
            { path: '*', lazy: notFoundPage },
          ],
        },
      ],
    },
  ]);
}
