import type { Discount, DiscountListResponse } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { admin, mockApi } from '../../../test/render';
import { makeState, renderWithProviders } from '../../../test/cart-utils';
import DiscountEditPage from './DiscountEditPage';
import DiscountListPage from './DiscountListPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const spring: Discount = {
  _id: 'dddddddddddddddddddddddd', code: 'SPRING10', kind: 'percent', value: 10, minSubtotal: 20, startsAt: null, endsAt: '2026-12-31T00:00:00.000Z',
  usageLimit: 100, perCustomerLimit: 1, productIds: [], categories: ['Kitchen'], enabled: true, allowBelowSupplierCost: false, timesUsed: 7,
  createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z',
};
const list = (discounts: Discount[], extra: Partial<DiscountListResponse> = {}): DiscountListResponse => ({ discounts, page: 1, pages: 1, countDiscounts: discounts.length, ...extra });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('DiscountListPage', () => {
  it('lists codes with what they give, conditions, dates and uses; searches; disables; deletes after confirmation', async () => {
    let discounts = [spring];
    const urls: URL[] = [];
    const api = mockApi({
      'GET discounts': (_b, url) => { urls.push(url); return { body: list(discounts, { pages: 2 }) }; },
      [`PUT discounts/${spring._id}`]: (body) => {
        discounts = [{ ...spring, enabled: (body as { enabled: boolean }).enabled }];
        return { body: { message: 'Discount updated', discount: discounts[0] } };
      },
      [`DELETE discounts/${spring._id}`]: () => { discounts = []; return { body: { message: 'Discount deleted' } }; },
    });
    renderWithProviders(<DiscountListPage />, { state: makeState({ userInfo: admin }), route: '/admin/discounts' });
    const row = (await screen.findByText('SPRING10')).closest('tr')!;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'SPRING10', '10% off', 'Min $20.00 · Kitchen · 1 per customer', 'until 2026-12-31', '7 / 100', 'Enabled', 'EditDisableDelete',
    ]);
    expect(within(row).getByRole('link', { name: 'Edit SPRING10' })).toHaveAttribute('href', `/admin/discount/${spring._id}`);

    await userEvent.type(screen.getByLabelText('Search discounts by code'), 'spr');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('search')).toBe('spr'));

    await userEvent.click(within(row).getByRole('button', { name: 'Disable SPRING10' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('SPRING10 disabled'));
    expect(api.callsTo(`PUT discounts/${spring._id}`)[0]!.body).toMatchObject({ code: 'SPRING10', kind: 'percent', value: 10, enabled: false, categories: ['Kitchen'] });
    expect(await screen.findByText('Disabled')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Delete SPRING10' }));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo(`DELETE discounts/${spring._id}`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Discount deleted'));
    expect(await screen.findByText('No discounts found')).toBeInTheDocument();
  });

  it('says so when there is no code yet', async () => {
    mockApi({ 'GET discounts': () => ({ body: list([]) }) });
    renderWithProviders(<DiscountListPage />, { state: makeState({ userInfo: admin }), route: '/admin/discounts' });
    expect(await screen.findByText('No discount codes yet: create one to run a promotion')).toBeInTheDocument();
  });
});

const renderEdit = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/discount/:id" element={<DiscountEditPage />} />
      <Route path="/admin/discount" element={<DiscountEditPage />} />
      <Route path="*" element={<div>elsewhere</div>} />
    </Routes>,
    { state: makeState({ userInfo: admin }), route },
  );

describe('DiscountEditPage', () => {
  it('validates before sending, then creates a code; a taken code shows the server message on its field', async () => {
    let taken = true;
    const api = mockApi({
      'POST discounts': (body) => taken
        ? { status: 409, body: { message: 'A discount with this code already exists', code: 'DISCOUNT_CODE_TAKEN', fieldErrors: { code: 'A discount with this code already exists' } } }
        : { status: 201, body: { message: 'Discount created', discount: { ...spring, ...(body as object) } } },
    });
    renderEdit('/admin/discount');
    await userEvent.type(screen.getByLabelText('Code'), 'SUMMER');
    await userEvent.type(screen.getByLabelText('Percentage (1–100)'), '150');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(toast.error).toHaveBeenCalledWith('Please fill all fields correctly!');
    expect(screen.getByText('A percentage must be a whole number from 1 to 100')).toBeInTheDocument();
    expect(api.callsTo('POST discounts')).toHaveLength(0);

    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'fixed');
    const amount = screen.getByLabelText('Amount (USD)');
    await userEvent.clear(amount);
    await userEvent.type(amount, '5');
    await userEvent.type(screen.getByLabelText('Usage limit (optional)'), '50');
    await userEvent.type(screen.getByLabelText('Categories (optional)'), 'Kitchen, Garden');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('A discount with this code already exists', { selector: '.invalid-feedback' })).toBeInTheDocument();
    expect(toast.error).toHaveBeenLastCalledWith('A discount with this code already exists');

    taken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Discount created');
    expect(api.callsTo('POST discounts').at(-1)!.body).toEqual({
      code: 'SUMMER', kind: 'fixed', value: '5', minSubtotal: '', startsAt: null, endsAt: null, usageLimit: '50', perCustomerLimit: '',
      productIds: [], categories: ['Kitchen', 'Garden'], enabled: true, allowBelowSupplierCost: false,
    });
  });

  it('loads a code to edit and saves the change', async () => {
    const api = mockApi({
      [`GET discounts/${spring._id}`]: () => ({ body: spring }),
      [`PUT discounts/${spring._id}`]: (body) => ({ body: { message: 'Discount updated', discount: { ...spring, ...(body as object) } } }),
    });
    renderEdit(`/admin/discount/${spring._id}`);
    const code = await screen.findByLabelText('Code');
    await waitFor(() => expect(code).toHaveValue('SPRING10'));
    expect(screen.getByLabelText('Minimum subtotal (USD, optional)')).toHaveValue('20');
    await userEvent.click(screen.getByLabelText('May take supplier products below their supplier cost'));
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(api.callsTo(`PUT discounts/${spring._id}`)[0]!.body).toMatchObject({ code: 'SPRING10', allowBelowSupplierCost: true, categories: ['Kitchen'], perCustomerLimit: '1' });
  });
});
