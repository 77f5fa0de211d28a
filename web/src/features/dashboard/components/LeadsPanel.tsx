import { LEAD_INTEREST_LEVELS, LEAD_MESSAGES, LEAD_STATUSES, type Lead, type LeadStats } from '@shop/contracts';
import { useState } from 'react';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { getErrorMessage } from '../../../lib/api-client';
import { formatShortDate } from '../../../lib/format';
import { useLeads, type LeadListParams } from '../api/leads';
import { LeadUpdateDialog } from './LeadUpdateDialog';

const INTEREST_CLASS: Record<Lead['interestLevel'], string> = { high: 'text-bg-danger', medium: 'text-bg-warning', low: 'text-bg-secondary' };

/** Lead statistics: total, by status, by interest, the five most wanted products. */
export function LeadStatsCards({ stats }: { stats: LeadStats }) {
  return (
    <div className="row g-2 mb-3" data-testid="lead-stats">
      <div className="col-12 col-md-3">
        <div className="card h-100"><div className="card-body py-2">
          <div className="small text-body-secondary">Total Leads</div>
          <div className="fs-4 fw-bold">{stats.total}</div>
        </div></div>
      </div>
      <div className="col-12 col-md-3">
        <div className="card h-100"><div className="card-body py-2 small">
          <div className="text-body-secondary">By Status</div>
          {LEAD_STATUSES.map((s) => <div key={s} className="d-flex justify-content-between"><span className="text-capitalize">{s}</span><span>{stats.byStatus[s]}</span></div>)}
        </div></div>
      </div>
      <div className="col-12 col-md-3">
        <div className="card h-100"><div className="card-body py-2 small">
          <div className="text-body-secondary">By Interest</div>
          {LEAD_INTEREST_LEVELS.map((s) => <div key={s} className="d-flex justify-content-between"><span className="text-capitalize">{s}</span><span>{stats.byInterest[s]}</span></div>)}
        </div></div>
      </div>
      <div className="col-12 col-md-3">
        <div className="card h-100"><div className="card-body py-2 small">
          <div className="text-body-secondary">Top Products of Interest</div>
          {stats.topProducts.length === 0 ? <div>None yet</div> : (
            <ol className="ps-3 mb-0">{stats.topProducts.map((p) => <li key={p.productId}>{p.name} ({p.count})</li>)}</ol>
          )}
        </div></div>
      </div>
    </div>
  );
}

/** The leads table with its statistics, filters and update dialog (dashboard and /admin/leads). */
export function LeadsPanel({ pageSize = 10, showFilters = false }: { pageSize?: number; showFilters?: boolean }) {
  const [params, setParams] = useState<LeadListParams>({ status: 'all', interest: 'all', page: 1, pageSize });
  const [search, setSearch] = useState('');
  const leads = useLeads(params);
  const [editing, setEditing] = useState<Lead | null>(null);

  if (leads.isPending) return <LoadingBox />;
  if (leads.isError) return <MessageBox variant="danger">{getErrorMessage(leads.error)}</MessageBox>;
  const { stats, pages, page } = leads.data;
  return (
    <>
      <LeadStatsCards stats={stats} />
      {showFilters && (
        <form role="search" className="d-flex flex-wrap gap-2 mb-2" onSubmit={(e) => { e.preventDefault(); setParams({ ...params, search: search.trim() || undefined, page: 1 }); }}>
          <label htmlFor="lead-filter-status" className="visually-hidden">Status</label>
          <select id="lead-filter-status" className="form-select form-select-sm w-auto" value={params.status} onChange={(e) => setParams({ ...params, status: e.target.value as LeadListParams['status'], page: 1 })}>
            <option value="all">All statuses</option>
            {LEAD_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
          <label htmlFor="lead-filter-interest" className="visually-hidden">Interest</label>
          <select id="lead-filter-interest" className="form-select form-select-sm w-auto" value={params.interest} onChange={(e) => setParams({ ...params, interest: e.target.value as LeadListParams['interest'], page: 1 })}>
            <option value="all">All interest levels</option>
            {LEAD_INTEREST_LEVELS.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
          <label htmlFor="lead-search" className="visually-hidden">Search leads</label>
          <input id="lead-search" type="search" className="form-control form-control-sm w-auto flex-grow-1" placeholder="Name, e-mail or notes" value={search} maxLength={200} onChange={(e) => setSearch(e.target.value)} />
          <button type="submit" className="btn btn-sm btn-outline-primary">Search</button>
        </form>
      )}
      {leads.data.leads.length === 0 ? (
        <MessageBox>{LEAD_MESSAGES.empty}</MessageBox>
      ) : (
        <div className="table-responsive">
          <table className="table table-sm table-hover align-middle" aria-busy={leads.isPlaceholderData}>
            <thead>
              <tr>
                <th scope="col">NAME</th>
                <th scope="col">EMAIL</th>
                <th scope="col">TYPE</th>
                <th scope="col">INTEREST</th>
                <th scope="col">STATUS</th>
                <th scope="col">PRODUCTS</th>
                <th scope="col">LAST INTERACTION</th>
                <th scope="col">FOLLOW-UP</th>
                <th scope="col">ACTIONS</th>
              </tr>
            </thead>
            <tbody>
              {leads.data.leads.map((lead) => (
                <tr key={lead._id} data-testid="lead-row">
                  <td>{lead.userName}</td>
                  <td className="text-break">{lead.userEmail}</td>
                  <td>{lead.isGuest ? 'Guest' : 'Customer'}</td>
                  <td><span className={`badge ${INTEREST_CLASS[lead.interestLevel]}`}>{lead.interestLevel}</span></td>
                  <td className="text-capitalize">{lead.status}</td>
                  <td className="small">{lead.productsOfInterest.map((p) => p.name).join(', ') || '—'}</td>
                  <td className="text-nowrap">{formatShortDate(lead.lastInteraction)}</td>
                  <td className="text-nowrap">{lead.followUpDate ? formatShortDate(lead.followUpDate) : '—'}</td>
                  <td>
                    <button type="button" className="btn btn-sm btn-outline-primary" aria-label={`Update lead ${lead.userName}`} onClick={() => setEditing(lead)}>Update</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav aria-label="Lead pages" className="d-flex gap-2 align-items-center">
          <button type="button" className="btn btn-sm btn-outline-secondary" disabled={page <= 1} onClick={() => setParams({ ...params, page: page - 1 })}>Previous</button>
          <span className="small">Page {page} of {pages}</span>
          <button type="button" className="btn btn-sm btn-outline-secondary" disabled={page >= pages} onClick={() => setParams({ ...params, page: page + 1 })}>Next</button>
        </nav>
      )}
      <LeadUpdateDialog lead={editing} onClose={() => setEditing(null)} />
    </>
  );
}
