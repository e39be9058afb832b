import { useCallback, useEffect, useRef, useState } from 'react';
import { onDemand } from '@web/lib/on-demand.js';

/*
 * The Write and shortcuts dialogs are loaded on first use: the composer brings react-hook-form and its
 * rules, which have no place in the first download of a page that is only being read.
 */
export const loadWriteDialog = onDemand(() => import('./write-dialog.js'));
export const loadShortcutsDialog = onDemand(() => import('./shortcuts-dialog.js'));

export type ShellDialogKind = 'write' | 'shortcuts';

export type ShellDialog =
  | { kind: 'write'; module: Awaited<ReturnType<typeof loadWriteDialog>> }
  | { kind: 'shortcuts'; module: Awaited<ReturnType<typeof loadShortcutsDialog>> };

/** Says the dialog could not be loaded (offline, a new version deployed meanwhile). */
export const dialogLoadFailedMessage =
  'That could not be opened. Check your connection and try again.';

/**
 * Which of the shell's dialogs is open, with its code loaded on demand. While the code loads nothing is
 * shown yet (`opening` says which is on its way); a failure goes to `onLoadFailed`, and a later open
 * tries again. Opening one while another loads keeps only the last.
 */
export function useShellDialogs(onLoadFailed: (message: string) => void) {
  const [dialog, setDialog] = useState<ShellDialog | null>(null);
  const [opening, setOpening] = useState<ShellDialogKind | null>(null);
  const attempt = useRef(0);
  const failed = useRef(onLoadFailed);
  useEffect(() => {
    failed.current = onLoadFailed;
  });

  const open = useCallback((kind: ShellDialogKind) => {
    attempt.current += 1;
    const current = attempt.current;
    setOpening(kind);
    const loaded: Promise<ShellDialog> =
      kind === 'write'
        ? loadWriteDialog().then((module) => ({ kind, module }))
        : loadShortcutsDialog().then((module) => ({ kind, module }));
    loaded.then(
      (next) => {
        if (current !== attempt.current) return;
        setOpening(null);
        setDialog(next);
      },
      () => {
        if (current !== attempt.current) return;
        setOpening(null);
        failed.current(dialogLoadFailedMessage);
      },
    );
  }, []);

  const close = useCallback(() => {
    attempt.current += 1;
    setOpening(null);
    setDialog(null);
  }, []);

  return { dialog, opening, open, close };
}
