import { WANTS_PERSON_LABEL } from '@shop/contracts/chat-constants';
import { formatDateTime } from '../lib/format';

/**
 * "Wants a person": the customer or guest asked the chat assistant for a person, or was upset
 * (issue 36), and no administrator has answered yet. Nothing when `since` is empty.
 */
export function WantsPersonBadge({ since, className = '' }: { since: string | null | undefined; className?: string }) {
  if (!since) return null;
  return (
    <span className={`badge text-bg-danger ${className}`.trim()} title={`Asked ${formatDateTime(since)}`} data-testid="wants-person">
      {WANTS_PERSON_LABEL}
    </span>
  );
}
