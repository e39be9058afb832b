import { Link } from 'react-router';
import { isRouteErrorResponse } from 'react-router';
import { AlertIcon, CompassIcon } from '@web/components/ui/icons.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { isChunkLoadError } from '@web/lib/chunk-loader.js';

export type ErrorKind = 'not-found' | 'chunk' | 'unexpected';

/** Sorts whatever was thrown into the three screens we show; never its stack. */
export function classifyError(error: unknown): ErrorKind {
  if (isRouteErrorResponse(error) && error.status === 404) return 'not-found';
  if (isChunkLoadError(error)) return 'chunk';
  return 'unexpected';
}

export const errorTitles: Record<ErrorKind, string> = {
  'not-found': 'Page not found',
  chunk: "This page didn't load",
  unexpected: 'Something went wrong',
};

function ReloadButton() {
  return (
    <button
      type="button"
      className="button button--primary"
      onClick={() => {
        window.location.reload();
      }}
    >
      Reload
    </button>
  );
}

/** The designed not-found page (also the `*` route). */
export function NotFoundContent() {
  return (
    <StatusPanel
      title={errorTitles['not-found']}
      headingLevel={1}
      icon={<CompassIcon />}
      actions={
        <Link className="button button--primary" to="/">
          Go to the home page
        </Link>
      }
    >
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
    </StatusPanel>
  );
}

/** One of the error screens, by kind. */
export function ErrorContent({ kind }: { kind: ErrorKind }) {
  switch (kind) {
    case 'not-found':
      return <NotFoundContent />;
    case 'chunk':
      // spec §9: after the timeout and one retry, offer a reload (a new deploy may have replaced the files).
      return (
        <div role="alert">
          <StatusPanel
            title={errorTitles.chunk}
            headingLevel={1}
            tone="error"
            icon={<AlertIcon />}
            actions={<ReloadButton />}
          >
            <p>
              Part of the app could not be downloaded. Check your connection, then reload to try
              again.
            </p>
          </StatusPanel>
        </div>
      );
    case 'unexpected':
      return (
        <div role="alert">
          <StatusPanel
            title={errorTitles.unexpected}
            headingLevel={1}
            tone="error"
            icon={<AlertIcon />}
            actions={
              <>
                <ReloadButton />
                <a className="button button--secondary" href="/">
                  Go to the home page
                </a>
              </>
            }
          >
            <p>An unexpected error stopped this page. Reloading usually fixes it.</p>
          </StatusPanel>
        </div>
      );
  }
}
