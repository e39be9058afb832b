import { Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router';
import { profilePath } from '@shared/paths.js';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { preload } from '@web/lib/on-demand.js';
import { ContentMenuProvider } from './content-menu-extras.js';
import { RelationshipsLive } from '@web/features/relationships/components/relationships-live.js';
import { focusWhenShown } from './focus-when-shown.js';
import { InactiveBanner } from './inactive-banner.js';
import type { ShortcutAction } from './keyboard-shortcuts.js';
import { currentPlace, mainNavPaths } from './main-nav-links.js';
import { NavBar } from './nav-bar.js';
import { NavigationProgress } from './navigation-progress.js';
import { RouteNotice } from './route-notice.js';
import { ShellNotice, type ShellNoticeState } from './shell-notice.js';
import { SiteFooter } from './site-footer.js';
import { SuspensionBanner } from './suspension-banner.js';
import { useKeyboardShortcuts } from './use-keyboard-shortcuts.js';
import { loadWriteDialog, useShellDialogs } from './use-shell-dialogs.js';

/** The search page's text box, which `/` focuses (issue: notifications and search §1, §3). */
export const searchInputSelector = '#search-input';

/**
 * How long after the Write dialog closes its outcome is shown: the page behind a modal dialog is hidden
 * from screen readers, so the message waits until the status region is theirs again to be announced.
 */
const outcomeDelayMs = 150;

/** An element to focus once the navigation to `path` has happened, instead of the page as a whole. */
interface FocusRequest {
  path: string;
  selector: string;
}

/**
 * Moves focus to the new page after client-side navigation, as a full page load would; or, when the
 * navigation was asked for with a target (`/` goes to the search box), to that target once it shows.
 */
function useFocusOnNavigation(
  target: RefObject<HTMLElement | null>,
  requestRef: RefObject<FocusRequest | null>,
) {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const wanted = requestRef.current;
    requestRef.current = null;
    if (wanted?.path !== pathname) {
      target.current?.focus({ preventScroll: true });
      return;
    }
    const { focusedNow, stop } = focusWhenShown(wanted.selector);
    // The page is still coming: it has focus meanwhile, and the field takes it when it shows.
    if (!focusedNow) target.current?.focus({ preventScroll: true });
    return stop;
  }, [pathname, target, requestRef]);
}

/** Landmarks, navigation bar, banner, page outlet and footer around every page. */
export function AppShell() {
  const auth = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const focusRequest = useRef<FocusRequest | null>(null);
  useFocusOnNavigation(main, focusRequest);

  const user = auth.user;
  // spec §6: only an active account may post; nor may a suspended one (ADR 0021).
  const canWrite = user?.active === true && !user.suspended;
  const writeButton = useRef<HTMLButtonElement>(null);
  const posted = useRef(false);
  const [notice, setNotice] = useState<ShellNoticeState | null>(null);
  // The post just published from the dialog, until its notice shows.
  const [publishedId, setPublishedId] = useState<string | null>(null);
  useEffect(() => {
    if (publishedId === null) return;
    const timer = setTimeout(() => {
      setNotice({ kind: 'published', postId: publishedId });
      setPublishedId(null);
    }, outcomeDelayMs);
    return () => {
      clearTimeout(timer);
    };
  }, [publishedId]);
  const dialogs = useShellDialogs((message) => {
    setNotice({ kind: 'load-failed', message });
  });
  const { close: closeDialog } = dialogs;
  useEffect(() => {
    // Signed out, or the account was deactivated, while composing: the composer goes.
    if (!canWrite) closeDialog();
  }, [canWrite, closeDialog]);

  const openWrite = () => {
    posted.current = false;
    dialogs.open('write');
  };

  const goTo = (path: string) => {
    if (pathname !== path) void navigate(path);
  };

  const place = currentPlace(pathname, user);
  const available = new Set<ShortcutAction>(['search', 'home', 'help']);
  if (canWrite) available.add('compose');
  if (user) {
    available.add('notifications');
    available.add('profile');
  }

  useKeyboardShortcuts((action) => {
    if (!available.has(action)) return false;
    switch (action) {
      case 'compose':
        openWrite();
        return true;
      case 'search':
        if (place === 'search') {
          document.querySelector<HTMLElement>(searchInputSelector)?.focus();
        } else {
          focusRequest.current = { path: mainNavPaths.search, selector: searchInputSelector };
          void navigate(mainNavPaths.search);
        }
        return true;
      case 'home':
        if (place !== 'home') void navigate(mainNavPaths.home);
        return true;
      case 'notifications':
        goTo(mainNavPaths.notifications);
        return true;
      case 'profile':
        if (user) goTo(profilePath(user));
        return true;
      case 'help':
        dialogs.open('shortcuts');
        return true;
    }
  });

  const open = dialogs.dialog;
  return (
    <div className="app">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // A plain fragment jump would be seen by the router as a navigation.
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <NavigationProgress />
      {dialogs.opening ? (
        <div
          className="navigation-progress"
          role="progressbar"
          aria-label={
            dialogs.opening === 'write' ? 'Opening the composer' : 'Opening the shortcuts'
          }
        />
      ) : null}
      <header className="site-header">
        <NavBar
          onWrite={openWrite}
          onWriteIntent={() => {
            preload(loadWriteDialog);
          }}
          writeButtonRef={writeButton}
        />
        {auth.authenticated && user?.active === false ? (
          <InactiveBanner awaitingApproval={auth.me?.awaitingApproval ?? false} />
        ) : null}
        {auth.authenticated && user?.suspended ? (
          <SuspensionBanner suspension={auth.me?.suspension ?? null} />
        ) : null}
      </header>
      <main id="main" className="site-main" ref={main} tabIndex={-1}>
        <RouteNotice />
        <Suspense fallback={<LoadingScreen />}>
          <ContentMenuProvider>
            <Outlet />
          </ContentMenuProvider>
        </Suspense>
      </main>
      <RelationshipsLive uid={auth.isLoading ? null : (user?.uid ?? null)} />
      <SiteFooter />
      <ShellNotice
        notice={notice}
        expectingOutcome={open?.kind === 'write' || publishedId !== null}
        onClear={() => {
          setNotice(null);
        }}
      />
      {open?.kind === 'write' && user && canWrite ? (
        <open.module.WriteDialog
          user={user}
          onClose={dialogs.close}
          onPosted={(post) => {
            posted.current = true;
            dialogs.close();
            setNotice(null);
            setPublishedId(post.id);
          }}
          // After posting, back to Write; after cancelling, back to where the reader was.
          returnFocus={() => (posted.current ? writeButton.current : null)}
        />
      ) : null}
      {open?.kind === 'shortcuts' ? (
        <open.module.ShortcutsDialog available={available} onClose={dialogs.close} />
      ) : null}
      <ScrollRestoration />
    </div>
  );
}
