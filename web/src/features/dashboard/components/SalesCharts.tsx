import type { OrderSummary } from '@shop/contracts';
import { Area, AreaChart, CartesianGrid, Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../../lib/format';
import { sliceColor } from '../lib/chart-colors';

/** The sales-trend area chart (recharts, loaded only with the dashboard). The drawing is hidden from assistive
 * technology; the labelled wrapper (role img) describes it. */
export function SalesTrendChart({ data }: { data: OrderSummary['dailyOrders'] }) {
  return (
    <div data-testid="sales-chart" role="img" aria-label={`Sales per day, net of refunds, and refunds per day, ${data.length} days; refunds in total ${formatMoney(data.reduce((n, d) => n + d.refunds, 0))}`} style={{ width: '100%', height: 280 }}>
      <div aria-hidden="true" style={{ width: '100%', height: '100%' }}>
      <ResponsiveContainer>
        <AreaChart data={data} margin={{ top: 10, right: 10, left: 0, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--bs-border-color)" />
          <XAxis dataKey="_id" tick={{ fontSize: 12, fill: 'var(--bs-body-color)' }} minTickGap={16} />
          <YAxis tick={{ fontSize: 12, fill: 'var(--bs-body-color)' }} width={60} />
          <Tooltip formatter={(v: number) => formatMoney(v)} contentStyle={{ background: 'var(--bs-body-bg)', color: 'var(--bs-body-color)' }} />
          <Legend />
          <Area type="monotone" dataKey="sales" name="Sales (net)" stroke="#0d6efd" fill="#0d6efd" fillOpacity={0.25} isAnimationActive={false} />
          <Area type="monotone" dataKey="refunds" name="Refunds" stroke="#dc3545" fill="#dc3545" fillOpacity={0.15} isAnimationActive={false} />
        </AreaChart>
      </ResponsiveContainer>
      </div>
    </div>
  );
}

/** The category pie chart. */
export function CategoryPieChart({ data }: { data: OrderSummary['productCategories'] }) {
  return (
    <div data-testid="category-chart" role="img" aria-label={`Products per category: ${data.map((c) => `${c._id} ${c.count}`).join(', ')}`} style={{ width: '100%', height: 280 }}>
      <div aria-hidden="true" style={{ width: '100%', height: '100%' }}>
      <ResponsiveContainer>
        <PieChart>
          <Pie data={data} dataKey="count" nameKey="_id" outerRadius="75%" isAnimationActive={false} rootTabIndex={-1}>
            {data.map((c, i) => <Cell key={c._id} fill={sliceColor(i)} />)}
          </Pie>
          <Tooltip contentStyle={{ background: 'var(--bs-body-bg)', color: 'var(--bs-body-color)' }} />
          <Legend />
        </PieChart>
      </ResponsiveContainer>
      </div>
    </div>
  );
}

export default { SalesTrendChart, CategoryPieChart };
