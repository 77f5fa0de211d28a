import type { AdminOrder, Lead, LeadListResponse, OrderSummary } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { admin, mockApi } from '../../../test/render';
import { makeState, renderWithProviders } from '../../../test/cart-utils';
import DashboardPage, { averageOrderValue, changeText } from './DashboardPage';
import LeadsPage from './LeadsPage';

// jsdom has no ResizeObserver; recharts' ResponsiveContainer needs one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const summary = (overrides: Partial<OrderSummary> = {}): OrderSummary => ({
  orders: [{ totalSales: 300, numOrders: 3, grossSales: 300, totalRefunds: 0 }],
  users: [{ numUsers: 12, newUsers: 2 }],
  dailyOrders: [{ _id: '2026-03-01', sales: 100, orders: 1, refunds: 0 }, { _id: '2026-03-02', sales: 200, orders: 2, refunds: 0 }],
  productCategories: [{ _id: 'Shirts', count: 4 }],
  range: { from: '2026-03-01', to: '2026-03-30', days: 30 },
  previous: { from: '2026-01-30', to: '2026-02-28', totalSales: 150, numOrders: 3, numUsers: 10, newUsers: 1, totalRefunds: 0 },
  ...overrides,
});

const lead = (overrides: Partial<Lead> = {}): Lead => ({
  _id: 'cccccccccccccccccccccccc', userId: 'guest_1', isGuest: true, userName: 'Gina Guest', userEmail: 'gina@example.com',
  interestLevel: 'high', status: 'contacted', productsOfInterest: [{ productId: 'p1', name: 'Desk Lamp' }],
  lastInteraction: '2026-03-02T10:00:00.000Z', notes: 'Called once', followUpDate: null, contactMethod: null, qualificationCriteria: null,
  nextSteps: null, conversionDetails: null, revenueAmount: null, lossReason: null, lossDetails: null, createdAt: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

const leadList = (leads: Lead[]): LeadListResponse => ({
  leads, page: 1, pages: 1, countLeads: leads.length,
  stats: { total: leads.length, byStatus: { new: 0, contacted: leads.length, qualified: 0, converted: 0, lost: 0 }, byInterest: { high: leads.length, medium: 0, low: 0 }, topProducts: [{ productId: 'p1', name: 'Desk Lamp', count: 1 }] },
});

const emptyOrders = { orders: [], page: 1, pages: 1, countOrders: 0 };

const recentOrder: AdminOrder = {
  _id: 'cccccccccccccccccccccccc', number: 1042, orderItems: [], paymentMethod: 'PayPal', itemsPrice: 18, shippingPrice: 0, taxPrice: 0, totalPrice: 18,
  shippingAddress: { fullName: 'Jane', address: '1 Main St', city: 'Springfield', postalCode: '1', country: 'USA' }, currency: 'USD',
  isPaid: true, paidAt: '2026-03-02T10:00:00.000Z', paymentResult: null, isDelivered: false, deliveredAt: null, createdAt: '2026-03-02T09:00:00.000Z',
  user: { _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'Jane' }, userEmail: 'jane@example.com', expiresAt: null, isExpired: false,
  status: 'partially_refunded', refundedAmount: 9, cancelledAt: null,
};

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('DashboardPage', () => {
  it('shows the five cards with the change against the previous period, and both charts', async () => {
    mockApi({ 'GET orders/summary': () => ({ body: summary() }), 'GET orders': () => ({ body: emptyOrders }), 'GET chat/leads': () => ({ body: leadList([lead()]) }) });
    renderWithProviders(<DashboardPage />, { state: makeState({ userInfo: admin }) });
    const cards = await screen.findAllByTestId('summary-card');
    expect(cards.map((c) => c.textContent)).toEqual([
      'Users122 new this period, 1 in the previous',
      'Orders30% vs previous period',
      'Sales$300.00+100% vs previous period',
      'Refunds$0.00same as previous period',
      'Average order value$100.00+100% vs previous period',
    ]);
    expect(await screen.findByTestId('sales-chart')).toBeInTheDocument();
    expect(await screen.findByTestId('category-chart')).toBeInTheDocument();
    expect(await screen.findByText('No Recent Orders')).toBeInTheDocument();
    expect(screen.getByTestId('discounts-given')).toHaveTextContent('Discounts given: $0.00 on 0 paid orders with a code (Discounts)');
  });

  it('shows the discounts given in the period', async () => {
    mockApi({
      'GET orders/summary': () => ({ body: summary({ discounts: { totalGiven: 1234.5, numOrders: 17 } }) }),
      'GET orders': () => ({ body: emptyOrders }), 'GET chat/leads': () => ({ body: leadList([lead()]) }),
    });
    renderWithProviders(<DashboardPage />, { state: makeState({ userInfo: admin }) });
    expect(await screen.findByTestId('discounts-given')).toHaveTextContent('Discounts given: $1,234.50 on 17 paid orders with a code');
    expect(screen.getByRole('link', { name: 'Discounts' })).toHaveAttribute('href', '/admin/discounts');
    expect(screen.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/admin/orders');
    expect(await screen.findByText('Gina Guest')).toBeInTheDocument();
  });

  it('each card against hand-computed values (large figures, first period with users)', async () => {
    // 4 paid orders: 1,200.50 + 2,549.68 = 3,750.18 on day 1; 999.99 + 0.01 = 1,000.00 on day 2 → 4,750.18 / 4 = 1,187.545 → $1,187.55.
    // Previous period: 2 orders, 1,000.00 → average 500.00; +137.5% rounds to +138%. Orders 4 vs 2: +100%. Sales +375% (4,750.18 / 1,000 − 1).
    mockApi({
      'GET orders/summary': () => ({ body: summary({
        orders: [{ totalSales: 4750.18, numOrders: 4, grossSales: 4750.18, totalRefunds: 0 }],
        users: [{ numUsers: 2, newUsers: 2 }],
        dailyOrders: [{ _id: '2026-03-01', sales: 3750.18, orders: 2, refunds: 0 }, { _id: '2026-03-02', sales: 1000, orders: 2, refunds: 0 }],
        previous: { from: '2026-01-30', to: '2026-02-28', totalSales: 1000, numOrders: 2, numUsers: 0, newUsers: 0, totalRefunds: 0 },
      }) }),
      'GET orders': () => ({ body: emptyOrders }),
      'GET chat/leads': () => ({ body: leadList([]) }),
    });
    renderWithProviders(<DashboardPage />, { state: makeState({ userInfo: admin }) });
    const cards = await screen.findAllByTestId('summary-card');
    expect(cards.map((c) => c.textContent)).toEqual([
      'Users22 new this period, 0 in the previous',
      'Orders4+100% vs previous period',
      'Sales$4,750.18+375% vs previous period',
      'Refunds$0.00same as previous period',
      'Average order value$1,187.55+138% vs previous period',
    ]);
  });

  it('shows the refunds given beside the net sales, in the chart too, and names recent orders by number with their status', async () => {
    // Paid 320.00, refunded 20.00 of it: net 300.00 over 3 orders. Refunds before: 40.00, so −50% (good news, in green).
    mockApi({
      'GET orders/summary': () => ({ body: summary({
        orders: [{ totalSales: 300, numOrders: 3, grossSales: 320, totalRefunds: 20 }],
        dailyOrders: [{ _id: '2026-03-01', sales: 100, orders: 1, refunds: 0 }, { _id: '2026-03-02', sales: 180, orders: 2, refunds: 20 }],
        previous: { from: '2026-01-30', to: '2026-02-28', totalSales: 150, numOrders: 3, numUsers: 10, newUsers: 1, totalRefunds: 40 },
      }) }),
      'GET orders': () => ({ body: { orders: [recentOrder], page: 1, pages: 1, countOrders: 1 } }),
      'GET chat/leads': () => ({ body: leadList([]) }),
    });
    renderWithProviders(<DashboardPage />, { state: makeState({ userInfo: admin }) });
    const cards = await screen.findAllByTestId('summary-card');
    expect(cards[2]).toHaveTextContent('Sales$300.00$320.00 paid, net of refunds+100% vs previous period');
    expect(cards[3]).toHaveTextContent(/^Refunds\$20\.00−50% vs previous period$/);
    expect(within(cards[3]!).getByText('−50% vs previous period')).toHaveClass('text-success');
    expect(await screen.findByTestId('sales-chart')).toHaveAttribute('aria-label', 'Sales per day, net of refunds, and refunds per day, 2 days; refunds in total $20.00');
    const [row] = await screen.findAllByTestId('recent-order');
    expect(within(row!).getByRole('link', { name: 'Order #1042' })).toHaveAttribute('href', '/order/cccccccccccccccccccccccc');
    expect(within(row!).getByTestId('order-status')).toHaveTextContent('Partially refunded');
  });

  it("shows 'No Sale' and 'No Category' when there is nothing to chart, and changes the range", async () => {
    const urls: URL[] = [];
    mockApi({
      'GET orders/summary': (_b, url) => { urls.push(url); return { body: summary({ orders: [{ totalSales: 0, numOrders: 0, grossSales: 0, totalRefunds: 0 }], dailyOrders: [{ _id: '2026-03-01', sales: 0, orders: 0, refunds: 0 }], productCategories: [] }) }; },
      'GET orders': () => ({ body: emptyOrders }),
      'GET chat/leads': () => ({ body: leadList([]) }),
    });
    renderWithProviders(<DashboardPage />, { state: makeState({ userInfo: admin }) });
    expect(await screen.findByText('No Sale')).toBeInTheDocument();
    expect(screen.getByText('No Category')).toBeInTheDocument();
    expect(await screen.findByText('No leads found')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(urls).toHaveLength(2));
    const from = Date.parse(urls[1]!.searchParams.get('from')!);
    const to = Date.parse(urls[1]!.searchParams.get('to')!);
    expect((to - from) / 86_400_000).toBe(6);
  });

  it('average order value is 0 without orders; change texts', () => {
    expect(averageOrderValue(0, 0)).toBe(0);
    expect(averageOrderValue(100, 3)).toBe(33.33);
    expect(changeText(5, 0)).toBe('none in previous period');
    expect(changeText(0, 0)).toBe('same as previous period');
    expect(changeText(50, 100)).toBe('−50% vs previous period');
    expect(changeText(100, 100)).toBe('0% vs previous period');
  });
});

describe('LeadsPage', () => {
  it('opens the update dialog on the current status and sends status, notes, date and details', async () => {
    const api = mockApi({
      'GET chat/leads': () => ({ body: leadList([lead()]) }),
      'PUT chat/leads/cccccccccccccccccccccccc': (body) => ({ body: { message: 'Lead updated successfully', lead: { ...lead(), ...(body as object) } } }),
    });
    renderWithProviders(<LeadsPage />, { state: makeState({ userInfo: admin }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Update lead Gina Guest' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Status')).toHaveValue('contacted');
    await userEvent.selectOptions(within(dialog).getByLabelText('Status'), 'converted');
    await userEvent.clear(within(dialog).getByLabelText('Notes'));
    await userEvent.type(within(dialog).getByLabelText('Notes'), 'Bought it');
    await userEvent.type(within(dialog).getByLabelText('Revenue Amount'), '59.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Lead updated successfully'));
    expect(api.callsTo('PUT chat/leads/cccccccccccccccccccccccc')[0]!.body).toMatchObject({ status: 'converted', notes: 'Bought it', revenueAmount: 59.5 });
  });

  it('marks a lead whose person asked the chat for a person: a badge in the table and in the dialog (issue 36)', async () => {
    mockApi({ 'GET chat/leads': () => ({ body: leadList([lead({ wantsPersonAt: '2026-01-02T10:05:00.000Z' }), lead({ _id: 'dddddddddddddddddddddddd', userName: 'Nat Noneed', wantsPersonAt: null })]) }) });
    renderWithProviders(<LeadsPage />, { state: makeState({ userInfo: admin }) });
    const row = (await screen.findByRole('button', { name: 'Update lead Gina Guest' })).closest('tr')!;
    expect(within(row).getByText('Wants a person')).toBeInTheDocument();
    expect(within(screen.getByRole('button', { name: 'Update lead Nat Noneed' }).closest('tr')!).queryByText('Wants a person')).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: 'Update lead Gina Guest' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Wants a person')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('asked the chat assistant for a person');
  });

  it('shows a clear error and sends nothing when the revenue amount is negative', async () => {
    const api = mockApi({ 'GET chat/leads': () => ({ body: leadList([lead()]) }) });
    renderWithProviders(<LeadsPage />, { state: makeState({ userInfo: admin }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Update lead Gina Guest' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText('Status'), 'converted');
    await userEvent.type(within(dialog).getByLabelText('Revenue Amount'), '-3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Revenue amount must be 0 or more');
    expect(api.callsTo('PUT chat/leads/cccccccccccccccccccccccc')).toHaveLength(0);
  });

  it('/admin/leads filters by status and interest and searches, back to page 1 each time', async () => {
    const queries: URLSearchParams[] = [];
    mockApi({
      'GET chat/leads': (_body, url) => {
        queries.push(url.searchParams);
        return { body: { ...leadList([lead()]), page: 1, pages: 2 } };
      },
    });
    renderWithProviders(<LeadsPage />, { state: makeState({ userInfo: admin }) });
    await screen.findByRole('button', { name: 'Update lead Gina Guest' });
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(queries.at(-1)!.get('page')).toBe('2'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'qualified');
    await waitFor(() => expect(queries.at(-1)!.get('status')).toBe('qualified'));
    expect(queries.at(-1)!.get('page')).toBe('1');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Interest' }), 'low');
    await waitFor(() => expect(queries.at(-1)!.get('interest')).toBe('low'));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search leads' }), ' gina ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(queries.at(-1)!.get('search')).toBe('gina'));
    expect(Object.fromEntries(queries.at(-1)!)).toMatchObject({ status: 'qualified', interest: 'low', page: '1' });
  });
});
