import { LEAD_MESSAGES, LEAD_NOTES_MAX, LEAD_STATUSES, updateLeadBodySchema, type Lead } from '@shop/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { WantsPersonBadge } from '../../../components/WantsPersonBadge';
import { toast } from '../../../lib/toast';
import { getErrorMessage } from '../../../lib/api-client';
import { useUpdateLead } from '../api/leads';

type Form = {
  status: Lead['status']; notes: string; followUpDate: string; contactMethod: string; qualificationCriteria: string;
  nextSteps: string; conversionDetails: string; revenueAmount: string; lossReason: string; lossDetails: string;
};

const formOf = (lead: Lead): Form => ({
  status: lead.status,
  notes: lead.notes,
  followUpDate: lead.followUpDate ? lead.followUpDate.slice(0, 10) : '',
  contactMethod: lead.contactMethod ?? '',
  qualificationCriteria: lead.qualificationCriteria ?? '',
  nextSteps: lead.nextSteps ?? '',
  conversionDetails: lead.conversionDetails ?? '',
  revenueAmount: lead.revenueAmount === null ? '' : String(lead.revenueAmount),
  lossReason: lead.lossReason ?? '',
  lossDetails: lead.lossDetails ?? '',
});

const STATUS_LABELS: Record<Lead['status'], string> = { new: 'New', contacted: 'Contacted', qualified: 'Qualified', converted: 'Converted', lost: 'Lost' };

/** The lead update dialog: opens on the current status; the extra details are sent and stored. */
export function LeadUpdateDialog({ lead, onClose }: { lead: Lead | null; onClose: () => void }) {
  const updateLead = useUpdateLead();
  const [form, setForm] = useState<Form | null>(lead ? formOf(lead) : null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (lead) {
      setForm(formOf(lead));
      setError(null);
    }
  }, [lead]);

  const set = (key: keyof Form) => (e: { target: { value: string } }) => setForm((f) => (f ? { ...f, [key]: e.target.value } : f));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!lead || !form) return;
    const parsed = updateLeadBodySchema.safeParse(form);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the form');
      return;
    }
    try {
      await updateLead.mutateAsync({ id: lead._id, body: parsed.data });
      toast.success(LEAD_MESSAGES.updated);
      onClose();
    } catch (err) {
      console.error('Lead update failed', err);
      setError(getErrorMessage(err));
    }
  };

  const field = (key: keyof Form, label: string, opts: { type?: string; textarea?: boolean } = {}) => (
    <div className="mb-2">
      <label htmlFor={`lead-${key}`} className="form-label small mb-1">{label}</label>
      {opts.textarea ? (
        <textarea id={`lead-${key}`} className="form-control form-control-sm" rows={2} value={form?.[key] ?? ''} onChange={set(key)} maxLength={500} />
      ) : (
        <input id={`lead-${key}`} type={opts.type ?? 'text'} className="form-control form-control-sm" value={form?.[key] ?? ''} onChange={set(key)} maxLength={500} min={opts.type === 'number' ? 0 : undefined} step={opts.type === 'number' ? '0.01' : undefined} />
      )}
    </div>
  );

  return (
    <Modal show={Boolean(lead)} onHide={onClose} centered aria-labelledby="lead-dialog-title">
      <form noValidate onSubmit={(e) => void onSubmit(e)}>
        <Modal.Header closeButton>
          <Modal.Title id="lead-dialog-title" as="h2" className="h5">Update Lead{lead ? `: ${lead.userName}` : ''}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {error && <div className="alert alert-danger py-2" role="alert">{error}</div>}
          {lead?.wantsPersonAt && (
            <p className="mb-2 small">
              <WantsPersonBadge since={lead.wantsPersonAt} className="me-1" /> asked the chat assistant for a person. Answer in the chat, or change the status once you have been in touch.
            </p>
          )}
          <div className="mb-2">
            <label htmlFor="lead-status" className="form-label small mb-1">Status</label>
            <select id="lead-status" className="form-select form-select-sm" value={form?.status ?? 'new'} onChange={set('status')}>
              {LEAD_STATUSES.map((s) => <option key={s} value={s}>{STATUS_LABELS[s]}</option>)}
            </select>
          </div>
          <div className="mb-2">
            <label htmlFor="lead-notes" className="form-label small mb-1">Notes</label>
            <textarea id="lead-notes" className="form-control form-control-sm" rows={3} maxLength={LEAD_NOTES_MAX} value={form?.notes ?? ''} onChange={set('notes')} />
          </div>
          {field('followUpDate', 'Follow-up Date', { type: 'date' })}
          {field('contactMethod', 'Contact Method')}
          {form?.status === 'qualified' && field('qualificationCriteria', 'Qualification Criteria', { textarea: true })}
          {(form?.status === 'contacted' || form?.status === 'qualified') && field('nextSteps', 'Next Steps', { textarea: true })}
          {form?.status === 'converted' && (
            <>
              {field('conversionDetails', 'Conversion Details', { textarea: true })}
              {field('revenueAmount', 'Revenue Amount', { type: 'number' })}
            </>
          )}
          {form?.status === 'lost' && (
            <>
              {field('lossReason', 'Reason for Loss')}
              {field('lossDetails', 'Loss Details', { textarea: true })}
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose} disabled={updateLead.isPending}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={updateLead.isPending}>Update</Button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
