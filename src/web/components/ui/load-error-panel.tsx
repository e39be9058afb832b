import { AlertIcon } from './icons.js';
import { StatusPanel } from './status-panel.js';

interface LoadErrorPanelProps {
  title: string;
  error: Error;
  onRetry: () => void;
  headingLevel?: 1 | 2;
}

/** A read that failed (network, server): what happened, and a way to try again. */
export function LoadErrorPanel({ title, error, onRetry, headingLevel = 1 }: LoadErrorPanelProps) {
  return (
    <div role="alert">
      <StatusPanel
        title={title}
        headingLevel={headingLevel}
        tone="error"
        icon={<AlertIcon />}
        actions={
          <button type="button" className="button button--primary" onClick={onRetry}>
            Try again
          </button>
        }
      >
        <p>{error.message}</p>
      </StatusPanel>
    </div>
  );
}
