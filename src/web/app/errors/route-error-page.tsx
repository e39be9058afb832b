import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { usePageTitle } from '../hooks/use-page-title.js';
import { classifyError, ErrorContent, errorTitles } from './error-content.js';

function useReportError(error: unknown) {
  useEffect(() => {
    // Kept for operators' browser consoles; the visitor sees only the designed screen.
    console.error(error);
  }, [error]);
}

/** Error element for pages: rendered inside the app shell so navigation stays usable. */
export function RouteErrorPage() {
  const error = useRouteError();
  const kind = classifyError(error);
  usePageTitle(errorTitles[kind]);
  useReportError(error);
  return (
    <div className="page page--narrow">
      <ErrorContent kind={kind} />
    </div>
  );
}

/** Error element for the shell itself: a standalone screen with nothing that could fail again. */
export function AppErrorScreen() {
  const error = useRouteError();
  const kind = classifyError(error);
  useReportError(error);
  return (
    <main id="main" className="standalone-screen">
      <ErrorContent kind={kind} />
    </main>
  );
}
