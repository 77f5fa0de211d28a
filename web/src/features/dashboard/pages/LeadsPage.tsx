import { PageTitle } from '../../../components/PageTitle';
import { LeadsPanel } from '../components/LeadsPanel';

/** /admin/leads: lead statistics and the full, filterable leads table. */
export default function LeadsPage() {
  return (
    <div>
      <PageTitle title="Leads" />
      <LeadsPanel pageSize={20} showFilters />
    </div>
  );
}
