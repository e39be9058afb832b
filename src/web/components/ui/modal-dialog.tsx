import {
  useEffect,
  useEffectEvent,
  useId,
  useRef,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';

interface ModalDialogProps {
  title: string;
  /** The heading is for screen readers only (the image viewer, whose picture speaks for itself). */
  hideTitle?: boolean;
  onClose: () => void;
  /** Where focus goes when the dialog opens; its Close button otherwise. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Where focus goes back to (asked when closing); the element focused before opening otherwise. */
  returnFocus?: () => HTMLElement | null;
  /** The header's Close button; a confirmation leaves it out, its Cancel button says the same. */
  closeButton?: boolean;
  /** While an action runs, Escape and the backdrop leave the dialog open, so its outcome is seen. */
  locked?: boolean;
  /** The id of the text that explains the dialog (aria-describedby). */
  describedBy?: string;
  className?: string;
  children: ReactNode;
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
}

/**
 * A modal built on the native <dialog> with showModal() (ADR 0006: nothing injects <style> under the
 * CSP). The browser makes the page behind it inert, keeps focus inside and closes it on Escape; a
 * click on the backdrop closes it too. Mounting opens it, unmounting closes it and returns focus.
 */
export function ModalDialog({
  title,
  hideTitle = false,
  onClose,
  initialFocus,
  returnFocus,
  closeButton = true,
  locked = false,
  describedBy,
  className,
  children,
  onKeyDown,
}: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeButtonRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const close = useEffectEvent(onClose);
  const dismiss = useEffectEvent(() => {
    if (!locked) onClose();
  });
  const focusTarget = useEffectEvent(() => returnFocus?.() ?? null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    (initialFocus?.current ?? closeButtonRef.current)?.focus();
    const onNativeClose = () => {
      close();
    };
    // Escape closes through React, so focus goes where this dialog says, not where the browser would.
    const onCancel = (event: Event) => {
      event.preventDefault();
      dismiss();
    };
    dialog.addEventListener('close', onNativeClose);
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('close', onNativeClose);
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      const target = focusTarget() ?? opener;
      if (target?.isConnected) target.focus();
    };
  }, [initialFocus]);

  useEffect(() => {
    // Light dismiss (a click on the backdrop) where the browser offers it, unless an action runs.
    ref.current?.setAttribute('closedby', locked ? 'none' : 'any');
  }, [locked]);

  return (
    <dialog
      ref={ref}
      className={['dialog', className ?? ''].join(' ').trim()}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
    >
      <div className="dialog__header">
        <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'dialog__title'}>
          {title}
        </h2>
        {closeButton ? (
          <button
            ref={closeButtonRef}
            type="button"
            className="button button--ghost button--small dialog__close"
            disabled={locked}
            onClick={() => {
              onClose();
            }}
          >
            Close
          </button>
        ) : null}
      </div>
      {children}
    </dialog>
  );
}
