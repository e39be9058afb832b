import { useLeaveBlocker } from '@web/lib/use-leave-prompt.js';
import { ConfirmDialog } from './confirm-dialog.js';

/**
 * "Leave this page?" (issue: notifications, search and the everyday things §4), asked for every form on
 * the page with unsaved changes. Rendered only by the form that hosts the page's blocker
 * (useLeavePrompt's `hosting`); a reload or a closed tab gets the browser's own prompt instead.
 */
export function LeavePrompt() {
  const { blocker, kept } = useLeaveBlocker();
  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      title="Leave this page?"
      confirmLabel="Leave"
      busyLabel="Leaving…"
      busy={false}
      error={null}
      onConfirm={() => {
        blocker.proceed();
      }}
      onClose={() => {
        blocker.reset();
      }}
    >
      <p>
        {kept
          ? 'Your draft is saved on this device.'
          : 'Your changes have not been saved and will be lost.'}
      </p>
    </ConfirmDialog>
  );
}
