import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface ModalDialogProps {
  open: boolean;
  title: string;
  /** Escape (the dialog's cancel event); the owner decides whether it closes. */
  onCancel: () => void;
  /** Extra classes besides `confirm-dialog`, which gives every dialog its look. */
  className?: string;
  children?: ReactNode;
}

/**
 * A modal panel in a native `<dialog>`, opened and closed by `open`: the browser moves focus into
 * it, keeps it there and returns it to what opened it; Escape asks `onCancel`. Every island's
 * dialog (confirmations, the save menu, the collection tools) is this one.
 */
export function ModalDialog({ open, title, onCancel, className, children }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={className ? `confirm-dialog ${className}` : 'confirm-dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
