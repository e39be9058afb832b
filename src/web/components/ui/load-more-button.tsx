import { BusyLabel } from './busy-label.js';

interface LoadMoreButtonProps {
  /** The next page is on its way. */
  busy: boolean;
  onLoad: () => void;
  label?: string;
  busyLabel?: string;
  className?: string;
}

/**
 * "Load more" under a paginated list. While the page loads it is aria-disabled rather than disabled:
 * a disabled button would drop the keyboard focus (useFocusAfterLoad then moves it to the new items).
 */
export function LoadMoreButton({
  busy,
  onLoad,
  label = 'Load more',
  busyLabel = 'Loading…',
  className = 'button button--secondary',
}: LoadMoreButtonProps) {
  return (
    <button
      type="button"
      className={className}
      aria-disabled={busy || undefined}
      aria-busy={busy}
      onClick={() => {
        if (!busy) onLoad();
      }}
    >
      <BusyLabel busy={busy} label={label} busyLabel={busyLabel} />
    </button>
  );
}
