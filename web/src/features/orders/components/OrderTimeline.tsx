import { ORDER_NOTE_MAX, type OrderEvent } from '@shop/contracts';
import { ORDER_MESSAGES } from '@shop/contracts/constants';
import { trackingUrlFor } from '@shop/contracts/supplier-constants';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { MessageBox } from '../../../components/MessageBox';
import { getErrorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useAddOrderNote } from '../api/add-order-note';
import { OrderCard } from './OrderSections';

/** One event: its date, what happened (as the server words it for this viewer), a tracking link, its author. */
function TimelineEvent({ event: e }: { event: OrderEvent }) {
  return (
    <li className={`list-group-item ${e.type === 'note' ? 'bg-body-tertiary' : ''}`} data-testid="timeline-event" data-type={e.type}>
      <div className="d-flex flex-wrap justify-content-between gap-2">
        <span className="fw-semibold shop-break" style={{ whiteSpace: e.type === 'note' ? 'pre-wrap' : undefined }}>
          {e.type === 'note' && <span className="badge text-bg-secondary me-2">Internal note</span>}
          {e.message}
        </span>
        <time className="small text-body-secondary text-nowrap" dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
      </div>
      {e.type === 'shipped' && e.trackingNumber && (
        <a className="small" href={trackingUrlFor(e.trackingNumber)} target="_blank" rel="noopener noreferrer">
          Track parcel {e.trackingNumber}{e.carrier ? ` (${e.carrier})` : ''}
        </a>
      )}
      {e.author && <div className="small text-body-secondary">by {e.author.name}</div>}
      {e.internal && e.type !== 'note' && <div className="small text-body-secondary">Not shown to the customer</div>}
    </li>
  );
}

/** The administrator's box under the timeline: an internal note (never shown to the customer). */
function AddNoteForm({ orderId }: { orderId: string }) {
  const addNote = useAddOrderNote();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) {
      setError('The note is empty');
      return;
    }
    try {
      await addNote.mutateAsync({ id: orderId, text: text.trim() });
      toast.success(ORDER_MESSAGES.noteAdded);
      setText('');
      setError(null);
    } catch (err) {
      setError(getErrorMessage(err));
    }
  };
  return (
    <Form noValidate className="mt-3" onSubmit={(e) => void onSubmit(e)}>
      <Form.Group controlId="order-note">
        <Form.Label>Internal note</Form.Label>
        <Form.Control as="textarea" rows={2} maxLength={ORDER_NOTE_MAX} value={text} isInvalid={Boolean(error)}
          placeholder="Only administrators see it" onChange={(e) => { setText(e.target.value); setError(null); }} />
        <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
      </Form.Group>
      <Button type="submit" size="sm" variant="outline-primary" className="mt-2" disabled={addNote.isPending}>
        {addNote.isPending ? 'Adding…' : 'Add note'}
      </Button>
    </Form>
  );
}

/**
 * The order's timeline, oldest first (as the server sends it): administrators get every event and the
 * note box; customers what the server shows them (never internal notes).
 */
export function OrderTimeline({ orderId, events, canAddNotes }: { orderId: string; events: OrderEvent[]; canAddNotes: boolean }) {
  return (
    <OrderCard title="Timeline" className="mb-3">
      {events.length === 0 ? (
        <MessageBox>No events yet</MessageBox>
      ) : (
        <ol className="list-group list-group-flush" aria-label="Order timeline, oldest first">
          {events.map((e) => <TimelineEvent key={e._id} event={e} />)}
        </ol>
      )}
      {canAddNotes && <AddNoteForm orderId={orderId} />}
    </OrderCard>
  );
}
