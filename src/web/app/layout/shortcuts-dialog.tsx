import { Fragment, useId } from 'react';
import { ModalDialog } from '@web/components/ui/modal-dialog.js';
import { shortcuts, type ShortcutAction } from './keyboard-shortcuts.js';

interface ShortcutsDialogProps {
  /** The shortcuts this reader can use (a visitor cannot write or have notifications). */
  available: ReadonlySet<ShortcutAction>;
  onClose: () => void;
}

/** `?`: the keyboard shortcuts, each with its keys (issue: notifications and search §1). */
export function ShortcutsDialog({ available, onClose }: ShortcutsDialogProps) {
  const noteId = useId();
  const listed = shortcuts.filter((shortcut) => available.has(shortcut.action));
  return (
    <ModalDialog
      title="Keyboard shortcuts"
      onClose={onClose}
      describedBy={noteId}
      className="dialog--shortcuts"
    >
      <p id={noteId} className="shortcuts__note">
        They work anywhere except while you type in a field or a dialog is open.
      </p>
      <dl className="shortcuts">
        {listed.map((shortcut) => (
          <div key={shortcut.action} className="shortcuts__row">
            <dt className="shortcuts__keys">
              {shortcut.keys.map((key, index) => (
                <Fragment key={key}>
                  {index > 0 ? <span className="shortcuts__then"> then </span> : null}
                  <kbd className="shortcuts__key">{key}</kbd>
                </Fragment>
              ))}
            </dt>
            <dd className="shortcuts__what">{shortcut.description}</dd>
          </div>
        ))}
      </dl>
    </ModalDialog>
  );
}
