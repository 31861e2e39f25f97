import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalDialog } from './shared/ModalDialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** Shown instead of the confirm label while the action runs. */
  busyLabel?: string;
  busy?: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal confirmation in a native `<dialog>`: focus moves into it, Escape cancels, and focus
 * returns to the button that opened it when it closes. Used inside islands.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, busyLabel, busy = false, danger = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <ModalDialog open={open} title={title} onCancel={() => {
        if (!busy) onCancel();
      }}>
      {children}
      <div className="actions">
        <button type="button" className="btn" onClick={onCancel} disabled={busy} autoFocus>
          {t('common.cancel')}
        </button>
        <button type="button" className={danger ? 'btn btn-danger-solid' : 'btn btn-primary'} onClick={onConfirm} disabled={busy} aria-busy={busy}>
          {busy && busyLabel ? busyLabel : confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
