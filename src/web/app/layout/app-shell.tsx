import { Suspense, useEffect, useRef, type RefObject } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { InactiveBanner } from './inactive-banner.js';
import { NavBar } from './nav-bar.js';
import { NavigationProgress } from './navigation-progress.js';
import { RouteNotice } from './route-notice.js';
import { SiteFooter } from './site-footer.js';

/** Moves focus to the new page after client-side navigation, as a full page load would. */
function useFocusOnNavigation(target: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    target.current?.focus({ preventScroll: true });
  }, [pathname, target]);
}

/** Landmarks, navigation bar, banner, page outlet and footer around every page. */
export function AppShell() {
  const auth = useAuth();
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main);
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
      <header className="site-header">
        <NavBar />
        {auth.authenticated && auth.user?.active === false ? <InactiveBanner /> : null}
      </header>
      <main id="main" className="site-main" ref={main} tabIndex={-1}>
        <RouteNotice />
        <Suspense fallback={<LoadingScreen />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
