import { lazy, Suspense, useEffect, type RefObject } from 'react';
import { Link } from 'react-router';
import { defaultImages } from '@shared/paths.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { useInstanceName } from '@web/features/instance/api/get-instance.js';
import { loadChunk } from '@web/lib/chunk-loader.js';
import { preloadWhenSettled, usePageSettled } from '@web/lib/page-settled.js';
import { MainNavLinks } from './main-nav-links.js';
import { UserMenuPlaceholder } from './user-menu-button.js';

let userMenuModule: Promise<typeof import('./user-menu.js')> | undefined;

// The menu (Radix) is only for signed-in users, so visitors never download it.
function loadUserMenu() {
  userMenuModule ??= loadChunk(() => import('./user-menu.js')).catch((error: unknown) => {
    userMenuModule = undefined;
    throw error;
  });
  return userMenuModule;
}

const UserMenu = lazy(() => loadUserMenu().then((module) => ({ default: module.UserMenu })));

interface NavBarProps {
  /** Opens the composer in a dialog (the Write button). */
  onWrite: () => void;
  onWriteIntent: () => void;
  writeButtonRef: RefObject<HTMLButtonElement | null>;
}

/**
 * spec §2 navigation bar: logo link to /, Login and Sign Up when signed out, the user menu when signed
 * in; between them the main navigation (issue: notifications and search §1).
 */
export function NavBar({ onWrite, onWriteIntent, writeButtonRef }: NavBarProps) {
  const auth = useAuth();
  const instanceName = useInstanceName();
  const signedInSoon = auth.me !== null;
  // The menu's code comes once the first page has settled; its look-alike holds its place (ADR 0035).
  const settled = usePageSettled();

  useEffect(() => {
    if (signedInSoon) preloadWhenSettled(loadUserMenu);
  }, [signedInSoon]);

  let actions;
  if (auth.isLoading) {
    actions = <span className="nav__pending" aria-hidden="true" />;
  } else if (auth.authenticated && auth.user && !settled) {
    actions = <UserMenuPlaceholder user={auth.user} />;
  } else if (auth.authenticated && auth.user) {
    actions = (
      <Suspense fallback={<UserMenuPlaceholder user={auth.user} />}>
        <UserMenu user={auth.user} />
      </Suspense>
    );
  } else {
    actions = (
      <>
        <Link className="button button--ghost" to="/login">
          Login
        </Link>
        <Link className="button button--primary" to="/register">
          Sign Up
        </Link>
      </>
    );
  }

  return (
    <nav className="nav" aria-label="Main">
      <Link to="/" className="nav__brand">
        <img src={defaultImages.logo} alt={instanceName} width={32} height={32} />
        {/* The image's alt already names the link; the visible name is not read twice. */}
        <span className="nav__brand-name" aria-hidden="true">
          {instanceName}
        </span>
      </Link>
      <MainNavLinks
        user={auth.user}
        // spec §6: an account that is not active yet cannot post; nor can a suspended one.
        canWrite={auth.user?.active === true && !auth.user.suspended}
        onWrite={onWrite}
        onWriteIntent={onWriteIntent}
        writeButtonRef={writeButtonRef}
      />
      <div className="nav__actions">{actions}</div>
    </nav>
  );
}
