import { CHAT_TEXTS } from '@shop/contracts/chat-constants';
import { useAdminAvailability } from '../hooks/use-admin-availability';

/**
 * The administrator's Online/Offline switch on the back office's chat pages (the same value as the
 * widget's header button): online, signed-in customers get an administrator; offline, the assistant.
 */
export function AvailabilitySwitch() {
  const { isOnline, isSaving, toggle } = useAdminAvailability();
  return (
    <div className="form-check form-switch mb-0 ps-0 d-flex align-items-center gap-2 shop-availability">
      <input
        id="admin-availability"
        className="form-check-input m-0"
        type="checkbox"
        role="switch"
        checked={isOnline}
        disabled={isSaving}
        onChange={() => void toggle()}
        aria-describedby="admin-availability-help"
      />
      <label htmlFor="admin-availability" className={`form-check-label fw-semibold ${isOnline ? 'text-success' : 'text-body-secondary'}`}>
        {isOnline ? CHAT_TEXTS.online : CHAT_TEXTS.offline}
      </label>
      <span id="admin-availability-help" className="visually-hidden">
        {isOnline ? 'Customers who write now get an administrator.' : 'The AI Assistant answers customers who write now.'}
      </span>
    </div>
  );
}
