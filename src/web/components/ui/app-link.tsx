import { createContext, useContext, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { Link } from 'react-router';

/** Moves the app to one of its paths: the router's own `navigate`, handed down once (app.tsx). */
export type AppNavigate = (to: string, options: { replace: boolean }) => unknown;

export const AppNavigateContext = createContext<AppNavigate | null>(null);

export type AppLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path of the app, from its root: `/post/12`, `/search?q=%23tag`. */
  to: string;
};

/**
 * Whether the app handles a click itself, as React Router's Link decides: the primary button, no
 * modifier (a new tab, a new window, a download) and no other target.
 */
function handledByApp(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    event.button === 0 &&
    (!target || target === '_self') &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

/**
 * A link to a path of the app, for what lists render many times: a post's byline, its actions, the
 * mentions and tags of its text. It renders the same `<a href>` as React Router's Link, and a click
 * navigates the same way (replacing the entry when the link is to the page already shown). But it reads
 * nothing of the router as it renders: Link resolves its path against the current route twice, and sets
 * up a navigate hook and a layout effect, for each link on every render, which made up a fifth of a
 * feed's first render on a slow phone. Where no navigate is handed down (a component test in a memory
 * router), and for a path that is not from the root, it is Link itself.
 */
export function AppLink({ to, onClick, children, ...rest }: AppLinkProps) {
  const navigate = useContext(AppNavigateContext);
  if (!navigate || !to.startsWith('/')) {
    return (
      <Link to={to} onClick={onClick} {...rest}>
        {children}
      </Link>
    );
  }
  return (
    <a
      href={to}
      {...rest}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !handledByApp(event)) return;
        event.preventDefault();
        const { pathname, search, hash } = window.location;
        navigate(to, { replace: `${pathname}${search}${hash}` === to });
      }}
    >
      {children}
    </a>
  );
}
