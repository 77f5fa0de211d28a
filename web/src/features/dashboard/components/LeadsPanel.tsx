import { LEAD_INTEREST_LEVELS, LEAD_MESSAGES, LEAD_STATUSES, type Lead, type LeadStats } from '@shop/contracts';
import { useState } from 'react';
import { AdminTable } from '../../../components/admin/AdminTable';
import { FilterSelect } from '../../../components/admin/FilterSelect';
import { ListSearchForm } from '../../../components/admin/ListSearchForm';
import { ListSkeleton } from '../../../components/Skeleton';
import { MessageBox } from '../../../components/MessageBox';
import { Pager } from '../../../components/Pager';
import { WantsPersonBadge } from '../../../components/WantsPersonBadge';
import { getErrorMessage } from '../../../lib/api-client';
import { formatShortDate } from '../../../lib/format';
import { useLeads, type LeadListParams } from '../api/leads';
import { LeadUpdateDialog } from './LeadUpdateDialog';
import { EmailText } from '../../../components/EmailText';

const capitalize = (s: string) => s[0]!.toUpperCase() + s.slice(1);

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
  const leads = useLeads(params);
  const [editing, setEditing] = useState<Lead | null>(null);

  if (leads.isPending) return <ListSkeleton />;
  if (leads.isError) return <MessageBox variant="danger">{getErrorMessage(leads.error)}</MessageBox>;
  const { stats, pages, page } = leads.data;
  return (
    <>
      <LeadStatsCards stats={stats} />
      {showFilters && (
        <div className="row g-2 align-items-end mb-2">
          <FilterSelect
            id="lead-filter-status"
            label="Status"
            className="col-6 col-md-3"
            value={params.status ?? 'all'}
            onChange={(status) => setParams({ ...params, status: status as LeadListParams['status'], page: 1 })}
            options={[['all', 'All statuses'], ...LEAD_STATUSES.map((s) => [s, capitalize(s)] as const)]}
          />
          <FilterSelect
            id="lead-filter-interest"
            label="Interest"
            className="col-6 col-md-3"
            value={params.interest ?? 'all'}
            onChange={(interest) => setParams({ ...params, interest: interest as LeadListParams['interest'], page: 1 })}
            options={[['all', 'All interest levels'], ...LEAD_INTEREST_LEVELS.map((s) => [s, capitalize(s)] as const)]}
          />
          <div className="col-12 col-md-6">
            <ListSearchForm
              id="lead-search"
              label="Search leads"
              placeholder="Name, e-mail or notes"
              value={params.search ?? ''}
              onSearch={(text) => setParams({ ...params, search: text || undefined, page: 1 })}
              className="d-flex gap-2"
            />
          </div>
        </div>
      )}
      {leads.data.leads.length === 0 ? (
        <MessageBox>{LEAD_MESSAGES.empty}</MessageBox>
      ) : (
        <AdminTable
          columns={['NAME', 'EMAIL', 'TYPE', 'INTEREST', 'STATUS', 'PRODUCTS', 'LAST INTERACTION', 'FOLLOW-UP', 'ACTIONS']}
          busy={leads.isPlaceholderData}
          className="table-sm table-hover"
        >
          {leads.data.leads.map((lead) => (
            <tr key={lead._id} data-testid="lead-row">
              <td>{lead.userName}<WantsPersonBadge since={lead.wantsPersonAt} className="ms-1" /></td>
              <td><EmailText email={lead.userEmail} /></td>
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
        </AdminTable>
      )}
      <Pager page={page} pages={pages} onPage={(n) => setParams({ ...params, page: n })} label="Lead pages" />
      <LeadUpdateDialog lead={editing} onClose={() => setEditing(null)} />
    </>
  );
}
