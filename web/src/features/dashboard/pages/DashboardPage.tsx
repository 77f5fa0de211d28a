import { DASHBOARD_RANGES, formatOrderNumber, type OrderSummary } from '@shop/contracts';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { AdminTable } from '../../../components/admin/AdminTable';
import { LoadingBox } from '../../../components/LoadingBox';
import { ListSkeleton, TextSkeleton } from '../../../components/Skeleton';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { getErrorMessage } from '../../../lib/api-client';
import { formatCount, formatMoney, formatShortDate } from '../../../lib/format';
import { useRecentOrders } from '../api/get-recent-orders';
import { rangeOfDays, useSummary } from '../api/get-summary';
import { LeadsPanel } from '../components/LeadsPanel';
import { OrderStatusBadge } from '../../orders';

// recharts is big: it loads with the charts, after the cards, and never with the storefront.
const SalesTrendChart = lazy(() => import('../components/SalesCharts').then((m) => ({ default: m.SalesTrendChart })));
const CategoryPieChart = lazy(() => import('../components/SalesCharts').then((m) => ({ default: m.CategoryPieChart })));

/** Average order value: total sales ÷ orders, 0 when there are none (SPEC §9). */
export function averageOrderValue(totalSales: number, numOrders: number): number {
  return numOrders > 0 ? Math.round((totalSales / numOrders) * 100) / 100 : 0;
}

/**
 * The change against the previous period: '+12% vs previous period' / '−5% vs previous period';
 * 'none in previous period' when there was nothing to compare with, 'same as previous period' when both are 0.
 */
export function changeText(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? 'same as previous period' : 'none in previous period';
  const pct = Math.round(((current - previous) / previous) * 100);
  return `${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct)}% vs previous period`;
}

/** A summary card: the figure and its change; `lowerIsBetter` (refunds) colours a rise as bad news; `detail` a line under it. */
function Card({ title, value, current, previous, note, detail, lowerIsBetter = false }: {
  title: string; value: string; current: number; previous: number; note?: string; detail?: string; lowerIsBetter?: boolean;
}) {
  const change = note ?? changeText(current, previous);
  const better = lowerIsBetter ? current < previous : current > previous;
  const worse = lowerIsBetter ? current > previous : current < previous;
  const tone = better ? 'text-success' : worse ? 'text-danger' : 'text-body-secondary';
  return (
    <div className="col-6 col-lg">
      <div className="card h-100" data-testid="summary-card">
        <div className="card-body">
          <h2 className="h6 card-title text-body-secondary mb-1">{title}</h2>
          <div className="fs-4 fw-bold">{value}</div>
          {detail && <div className="small text-body-secondary">{detail}</div>}
          <div className={`small ${tone}`}>{change}</div>
        </div>
      </div>
    </div>
  );
}

function SummaryCards({ summary }: { summary: OrderSummary }) {
  const totals = summary.orders[0] ?? { totalSales: 0, numOrders: 0, grossSales: 0, totalRefunds: 0 };
  const users = summary.users[0] ?? { numUsers: 0, newUsers: 0 };
  const prev = summary.previous;
  return (
    <div className="row g-3 mb-4">
      <Card title="Users" value={formatCount(users.numUsers)} current={users.newUsers} previous={prev.newUsers}
        note={`${formatCount(users.newUsers)} new this period, ${formatCount(prev.newUsers)} in the previous`} />
      <Card title="Orders" value={formatCount(totals.numOrders)} current={totals.numOrders} previous={prev.numOrders} />
      <Card title="Sales" value={formatMoney(totals.totalSales)} current={totals.totalSales} previous={prev.totalSales}
        detail={totals.totalRefunds > 0 ? `${formatMoney(totals.grossSales)} paid, net of refunds` : undefined} />
      <Card title="Refunds" value={formatMoney(totals.totalRefunds)} current={totals.totalRefunds} previous={prev.totalRefunds} lowerIsBetter />
      <Card title="Average order value" value={formatMoney(averageOrderValue(totals.totalSales, totals.numOrders))}
        current={averageOrderValue(totals.totalSales, totals.numOrders)} previous={averageOrderValue(prev.totalSales, prev.numOrders)} />
    </div>
  );
}

function RecentOrders() {
  const recent = useRecentOrders();
  return (
    <section className="mb-4" aria-labelledby="recent-orders-title">
      <div className="d-flex justify-content-between align-items-center">
        <h2 id="recent-orders-title" className="h5">Recent Orders</h2>
        <Link to={paths.admin.orders} className="btn btn-sm btn-outline-primary">View All</Link>
      </div>
      {recent.isPending ? <ListSkeleton rows={3} /> : recent.isError ? <MessageBox variant="danger">{getErrorMessage(recent.error)}</MessageBox> : recent.data.orders.length === 0 ? (
        <MessageBox>No Recent Orders</MessageBox>
      ) : (
        <AdminTable columns={['NUMBER', 'USER', 'DATE', 'TOTAL', 'STATUS']} className="table-sm table-hover">
          {recent.data.orders.map((o) => (
            <tr key={o._id} data-testid="recent-order">
              <td className="text-nowrap"><Link to={paths.order(o._id)} aria-label={`Order ${formatOrderNumber(o.number)}`}>{formatOrderNumber(o.number)}</Link></td>
              <td>{o.user ? o.user.name : 'DELETED USER'}</td>
              <td className="text-nowrap">{formatShortDate(o.createdAt)}</td>
              <td>{formatMoney(o.totalPrice)}</td>
              <td><OrderStatusBadge status={o.status} /></td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

export default function DashboardPage() {
  const [days, setDays] = useState<number>(30);
  const range = useMemo(() => rangeOfDays(days), [days]);
  const summary = useSummary(range);
  const hasSales = summary.data ? summary.data.dailyOrders.some((d) => d.sales !== 0 || d.refunds > 0) : false;

  return (
    <div>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
        <PageTitle title="Dashboard" />
        <div className="btn-group" role="group" aria-label="Period">
          {DASHBOARD_RANGES.map((d) => (
            <button key={d} type="button" className={`btn btn-sm ${d === days ? 'btn-primary' : 'btn-outline-primary'}`} aria-pressed={d === days} onClick={() => setDays(d)}>
              {d} days
            </button>
          ))}
        </div>
      </div>
      {summary.isPending ? (
        <TextSkeleton lines={4} label="Loading summary..." />
      ) : summary.isError ? (
        <MessageBox variant="danger">{getErrorMessage(summary.error)}</MessageBox>
      ) : (
        <>
          <p className="text-body-secondary small" aria-live="polite">{summary.data.range.from} – {summary.data.range.to} (UTC), paid orders</p>
          <SummaryCards summary={summary.data} />
          <p className="mb-4" data-testid="discounts-given">
            Discounts given: <strong>{formatMoney(summary.data.discounts?.totalGiven ?? 0)}</strong>{' '}
            <span className="text-body-secondary">on {formatCount(summary.data.discounts?.numOrders ?? 0)} paid orders with a code (<Link to={paths.admin.discounts}>Discounts</Link>)</span>
          </p>
          <div className="row g-3 mb-4">
            <section className="col-12 col-lg-8" aria-labelledby="sales-title">
              <h2 id="sales-title" className="h5">Sales</h2>
              {hasSales ? (
                <Suspense fallback={<LoadingBox />}><SalesTrendChart data={summary.data.dailyOrders} /></Suspense>
              ) : <MessageBox>No Sale</MessageBox>}
            </section>
            <section className="col-12 col-lg-4" aria-labelledby="categories-title">
              <h2 id="categories-title" className="h5">Categories</h2>
              {summary.data.productCategories.length > 0 ? (
                <Suspense fallback={<LoadingBox />}><CategoryPieChart data={summary.data.productCategories} /></Suspense>
              ) : <MessageBox>No Category</MessageBox>}
            </section>
          </div>
        </>
      )}
      <RecentOrders />
      <section aria-labelledby="leads-title">
        <div className="d-flex justify-content-between align-items-center">
          <h2 id="leads-title" className="h5">Leads</h2>
          <Link to={paths.admin.leads} className="btn btn-sm btn-outline-primary">All Leads</Link>
        </div>
        <LeadsPanel pageSize={5} />
      </section>
    </div>
  );
}
