import type { ShippingSettings } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { admin, makeState, mockApi, renderWithProviders } from '../../../test/render';
import ShippingSettingsPage from './ShippingSettingsPage';

vi.mock('react-toastify', async (orig) => ({ ...(await orig<object>()), toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const defaults: ShippingSettings = { flatRate: 0, freeOver: null, countryRates: [], supplierFreight: 'included', updatedAt: null };
const rates = (summary: string) => () => ({ body: { flatRate: 0, freeOver: null, countryRates: [], summary } });

beforeEach(() => vi.clearAllMocks());

describe('Admin → Shipping', () => {
  it('shows the saved settings and what shoppers read; an empty list of country rates says so', async () => {
    mockApi({ 'GET shipping/settings': () => ({ body: { settings: defaults } }), 'GET shipping/rates': rates('Shipping is free on every order.') });
    renderWithProviders(<ShippingSettingsPage />, { state: makeState({ userInfo: admin }) });
    expect(await screen.findByLabelText('Flat rate per order ($)')).toHaveValue('0.00');
    expect(screen.getByLabelText('Free shipping on orders over ($)')).toHaveValue('');
    expect(await screen.findByTestId('shipping-summary')).toHaveTextContent('Shipping is free on every order.');
    expect(screen.getByTestId('no-country-rates')).toBeInTheDocument();
    expect(screen.getByLabelText(/Included in their price/)).toBeChecked();
    expect(screen.getByRole('heading', { level: 1, name: 'Shipping' })).toBeInTheDocument();
  });

  it('offers each country once, by its current code (no withdrawn code such as FX for France)', async () => {
    mockApi({ 'GET shipping/settings': () => ({ body: { settings: defaults } }), 'GET shipping/rates': rates('Shipping is free on every order.') });
    renderWithProviders(<ShippingSettingsPage />, { state: makeState({ userInfo: admin }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Add Country Rate' }));
    const options = within(screen.getByRole('group', { name: 'Country rate 1' })).getAllByRole('option');
    const names = options.map((o) => o.textContent);
    expect(new Set(names).size).toBe(names.length);
    expect(options.find((o) => o.textContent === 'France')).toHaveValue('FR');
    expect(options.find((o) => o.textContent === 'Germany')).toHaveValue('DE');
  });

  it('checks input before sending (a clear message at the field), then saves a flat rate, a threshold, a country rate and the freight choice', async () => {
    const saved: ShippingSettings = {
      flatRate: 4.99, freeOver: 50, countryRates: [{ country: 'CA', name: 'Canada', rate: 9.99 }], supplierFreight: 'charge', updatedAt: '2026-12-07T10:00:00.000Z',
    };
    const { callsTo } = mockApi({
      'GET shipping/settings': () => ({ body: { settings: defaults } }),
      'GET shipping/rates': rates('Shipping is free on every order.'),
      'PUT shipping/settings': () => ({ body: { message: 'Shipping settings saved', settings: saved } }),
    });
    renderWithProviders(<ShippingSettingsPage />, { state: makeState({ userInfo: admin }) });
    const user = userEvent.setup();
    const flat = await screen.findByLabelText('Flat rate per order ($)');
    await user.clear(flat);
    await user.type(flat, '4.999');
    await user.click(screen.getByRole('button', { name: 'Save Shipping Settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Flat rate must have at most 2 decimal places');
    expect(flat).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo('PUT shipping/settings')).toHaveLength(0);

    await user.clear(flat);
    await user.type(flat, '4.99');
    await user.type(screen.getByLabelText('Free shipping on orders over ($)'), '50');
    await user.click(screen.getByRole('button', { name: 'Add Country Rate' }));
    const row = screen.getByRole('group', { name: 'Country rate 1' });
    await user.click(screen.getByRole('button', { name: 'Save Shipping Settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Country rate 1: Country must be a two-letter code, such as CA');
    await user.selectOptions(within(row).getByLabelText('Country'), 'Canada');
    await user.type(within(row).getByLabelText('Rate per order ($)'), '9.99');
    await user.click(screen.getByLabelText(/Charge the partner's freight at checkout/));
    await user.click(screen.getByRole('button', { name: 'Save Shipping Settings' }));
    await waitFor(() => expect(callsTo('PUT shipping/settings')).toHaveLength(1));
    expect(callsTo('PUT shipping/settings')[0]!.body).toEqual({
      flatRate: '4.99', freeOver: '50', countryRates: [{ country: 'CA', rate: '9.99' }], supplierFreight: 'charge',
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Shipping settings saved'));
    expect(await screen.findByLabelText('Flat rate per order ($)')).toHaveValue('4.99');
  });

  it("shows the server's refusal, and removes a country rate", async () => {
    const withRate: ShippingSettings = { ...defaults, countryRates: [{ country: 'JP', name: 'Japan', rate: 14.5 }] };
    const { callsTo } = mockApi({
      'GET shipping/settings': () => ({ body: { settings: withRate } }),
      'GET shipping/rates': rates('Shipping is free to every country except: Japan $14.50 per order.'),
      'PUT shipping/settings': () => ({ status: 400, body: { message: 'Japan has more than one rate', fieldErrors: { 'countryRates.0.country': 'Listed twice' } } }),
    });
    renderWithProviders(<ShippingSettingsPage />, { state: makeState({ userInfo: admin }) });
    const user = userEvent.setup();
    const row = await screen.findByRole('group', { name: 'Country rate 1' });
    expect(within(row).getByLabelText('Country')).toHaveValue('JP');
    await user.click(screen.getByRole('button', { name: 'Save Shipping Settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Japan has more than one rate');
    expect(within(row).getByLabelText('Country')).toHaveAttribute('aria-invalid', 'true');
    expect(toast.error).toHaveBeenCalledWith('Japan has more than one rate');
    await user.click(screen.getByRole('button', { name: 'Remove country rate 1' }));
    expect(screen.queryByRole('group', { name: 'Country rate 1' })).toBeNull();
    expect(screen.getByTestId('no-country-rates')).toBeInTheDocument();
    expect(callsTo('PUT shipping/settings')).toHaveLength(1);
  });
});
