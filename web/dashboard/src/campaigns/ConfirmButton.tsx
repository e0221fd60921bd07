import { type ReactNode, useState } from 'react';
import { Dialog } from '../ui';

/**
 * A button whose action is confirmed in a dialog first: what will happen is said in words, and
 * the confirming button repeats the action's name.
 */
export function ConfirmButton({
  label,
  title,
  confirmLabel,
  children,
  onConfirm,
  disabled,
  danger = false,
  className,
}: {
  label: string;
  title: string;
  confirmLabel: string;
  children: ReactNode;
  onConfirm: () => void;
  disabled?: boolean;
  danger?: boolean;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className ?? (danger ? 'danger secondary' : 'secondary')} disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </button>
      <Dialog title={title} open={open} onClose={() => setOpen(false)}>
        {children}
        <div className="row">
          <button
            type="button"
            className={danger ? 'danger' : undefined}
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
          <button type="button" className="secondary" onClick={() => setOpen(false)}>
            Keep it as it is
          </button>
        </div>
      </Dialog>
    </>
  );
}
