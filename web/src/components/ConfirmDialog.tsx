import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { ReactNode } from 'react';

/** A yes/no dialog for destructive actions; the confirm button shows progress while `isPending`. */
export function ConfirmDialog({
  show,
  title,
  children,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  variant = 'danger',
  isPending = false,
  onConfirm,
  onCancel,
}: {
  show: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  variant?: 'danger' | 'primary';
  isPending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby="confirm-dialog-title">
      <Modal.Header closeButton>
        <Modal.Title id="confirm-dialog-title" as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel} disabled={isPending}>
          {cancelLabel}
        </Button>
        <Button variant={variant} onClick={onConfirm} disabled={isPending}>
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
