import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { IDLE_DIALOG_CONTENT_CLASS } from './idle-constants';

/** The session-timeout warning. Only its two buttons close it: no close button, static backdrop, no Escape. */
export default function IdleWarningDialog({ show, secondsLeft, onStay, onLogout }: { show: boolean; secondsLeft: number; onStay: () => void; onLogout: () => void }) {
  return (
    <Modal show={show} backdrop="static" keyboard={false} centered aria-labelledby="idle-warning-title" contentClassName={IDLE_DIALOG_CONTENT_CLASS}>
      <Modal.Header>
        <Modal.Title id="idle-warning-title">Session Timeout Warning</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>Your session is about to expire due to inactivity.</p>
        <p className="fw-semibold" aria-live="polite">
          You will be logged out in {secondsLeft} seconds.
        </p>
        <p className="mb-0">Do you want to stay logged in?</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onLogout}>
          Logout Now
        </Button>
        <Button variant="primary" onClick={onStay} autoFocus>
          Stay Active
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
