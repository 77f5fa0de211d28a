import { FREIGHT_UNAVAILABLE_MESSAGE, type Address } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { customer, mockApi } from '../../../test/render';
import { makeCartItem, makeState, renderWithProviders } from '../../../test/cart-utils';
import PaymentPage from './PaymentPage';
import PlaceOrderPage from './PlaceOrderPage';
import ShippingPage from './ShippingPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const home: Address = { _id: 'a1a1a1a1a1a1a1a1a1a1a1a1', fullName: 'Jane Customer', address: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'USA', isDefault: true };
const work: Address = { _id: 'b2b2b2b2b2b2b2b2b2b2b2b2', fullName: 'Jane at Work', address: '9 Office Rd', city: 'Shelbyville', postalCode: '54321', country: 'USA', isDefault: false };
const shippingAddress = { _id: home._id, fullName: home.fullName, address: home.address, city: home.city, postalCode: home.postalCode, country: home.country };

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('ShippingPage', () => {
  it('shows the steps and preselects the default address; Continue saves it and goes to /payment', async () => {
    mockApi({ 'GET addresses': () => ({ body: [home, work] }) });
    const { probe } = renderWithProviders(<ShippingPage />, { route: '/shipping', path: '/shipping', state: makeState({ userInfo: customer }) });
    const steps = screen.getByRole('navigation', { name: 'Checkout steps' });
    expect(within(steps).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Sign-In', 'Shipping', 'Payment', 'Place Order']);
    expect(await screen.findByRole('radio', { name: /Jane Customer/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /Jane at Work/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(probe.state.cart.shippingAddress).toEqual({ _id: work._id, fullName: work.fullName, address: work.address, city: work.city, postalCode: work.postalCode, country: work.country });
    expect(screen.getByTestId('location')).toHaveTextContent('/payment');
  });

  it("shows 'Error loading addresses'", async () => {
    mockApi({ 'GET addresses': () => ({ status: 500, body: { message: 'x' } }) });
    renderWithProviders(<ShippingPage />, { state: makeState({ userInfo: customer }) });
    expect(await screen.findByText('Error loading addresses')).toBeInTheDocument();
  });

  it('adds a first address (all fields required) and continues with it', async () => {
    const api = mockApi({
      'GET addresses': () => ({ body: [] }),
      'POST addresses': (body) => ({ status: 201, body: { ...(body as object), _id: home._id, isDefault: true } }),
    });
    const { probe } = renderWithProviders(<ShippingPage />, { route: '/shipping', path: '/shipping', state: makeState({ userInfo: customer }) });
    await screen.findByLabelText('Full Name');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Full name is required')).toBeInTheDocument();
    expect(api.callsTo('POST addresses')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Full Name'), home.fullName);
    await userEvent.type(screen.getByLabelText('Address'), home.address);
    await userEvent.type(screen.getByLabelText('City'), home.city);
    await userEvent.type(screen.getByLabelText('Postal Code'), home.postalCode);
    await userEvent.type(screen.getByLabelText('Country'), home.country);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/payment'));
    expect(api.callsTo('POST addresses')[0]?.body).toMatchObject({ fullName: home.fullName, address: home.address, city: home.city, postalCode: home.postalCode, country: home.country });
    expect(probe.state.cart.shippingAddress).toEqual(shippingAddress);
  });

  it("shows the server's duplicate-address message", async () => {
    mockApi({
      'GET addresses': () => ({ body: [home] }),
      'POST addresses': () => ({ status: 400, body: { message: 'This address already exists in your address book' } }),
    });
    renderWithProviders(<ShippingPage />, { state: makeState({ userInfo: customer }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Add New Address' }));
    for (const [label, value] of [['Full Name', 'J'], ['Address', '1 MAIN ST'], ['City', 'springfield'], ['Postal Code', '12345'], ['Country', 'usa']] as const) {
      await userEvent.type(screen.getByLabelText(label), value);
    }
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This address already exists in your address book');
  });

  it("shows a server field error beside its field, once (not again in an alert)", async () => {
    mockApi({
      'GET addresses': () => ({ body: [home] }),
      'POST addresses': () => ({ status: 400, body: { message: 'Postal code must be at most 20 characters', fieldErrors: { postalCode: 'Postal code must be at most 20 characters' } } }),
    });
    renderWithProviders(<ShippingPage />, { state: makeState({ userInfo: customer }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Add New Address' }));
    for (const [label, value] of [['Full Name', 'J'], ['Address', '1 Main St'], ['City', 'Springfield'], ['Postal Code', '12345'], ['Country', 'USA']] as const) {
      await userEvent.type(screen.getByLabelText(label), value);
    }
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Postal code must be at most 20 characters')).toBeInTheDocument();
    expect(screen.getAllByText('Postal code must be at most 20 characters')).toHaveLength(1);
    expect(screen.getByLabelText('Postal Code')).toHaveClass('is-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('edits an address in a dialog and deletes one after confirmation', async () => {
    let book = [home, work];
    const api = mockApi({
      'GET addresses': () => ({ body: book }),
      [`PUT addresses/${work._id}`]: (body) => {
        book = [home, { ...work, ...(body as object) }];
        return { body: book[1] };
      },
      [`DELETE addresses/${work._id}`]: () => {
        book = [home];
        return { body: { message: 'Address deleted successfully' } };
      },
    });
    renderWithProviders(<ShippingPage />, { state: makeState({ userInfo: customer }) });
    await userEvent.click(await screen.findByRole('button', { name: `Edit ${work.address}, ${work.city}, ${work.postalCode}, ${work.country}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Address' });
    const city = within(dialog).getByLabelText('City');
    await userEvent.clear(city);
    await userEvent.type(city, 'Capital City');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.callsTo(`PUT addresses/${work._id}`)[0]?.body).toMatchObject({ city: 'Capital City' }));
    expect(await screen.findByRole('radio', { name: /Capital City/ })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /^Delete 9 Office Rd/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Address' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Address deleted successfully'));
    await waitFor(() => expect(screen.queryByRole('radio', { name: /Capital City/ })).not.toBeInTheDocument());
  });
});

describe('PaymentPage', () => {
  it('redirects to /shipping without an address', () => {
    renderWithProviders(<PaymentPage />, { route: '/payment', path: '/payment', state: makeState({ userInfo: customer }) });
    expect(screen.getByTestId('location')).toHaveTextContent('/shipping');
  });

  it('offers PayPal, shows Stripe disabled, saves the method and goes to /placeorder', async () => {
    const { probe } = renderWithProviders(<PaymentPage />, { route: '/payment', path: '/payment', state: makeState({ userInfo: customer, shippingAddress }) });
    expect(screen.getByRole('radio', { name: 'PayPal' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Stripe' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(probe.state.cart.paymentMethod).toBe('PayPal');
    expect(screen.getByTestId('location')).toHaveTextContent('/placeorder');
  });
});

describe('PlaceOrderPage', () => {
  const item = makeCartItem({ price: 9.99, quantity: 3 });

  it('redirects to /shipping without an address', () => {
    mockApi({ 'GET cart': () => ({ body: { cartItems: [item] } }) });
    renderWithProviders(<PlaceOrderPage />, { route: '/placeorder', path: '/placeorder', state: makeState({ userInfo: customer }) });
    expect(screen.getByTestId('location')).toHaveTextContent('/shipping');
  });

  it('previews the server-priced cart and places the order with the chosen address', async () => {
    const api = mockApi({
      'GET cart': () => ({ body: { cartItems: [item] } }),
      'POST orders': () => ({ status: 201, body: { _id: 'cccccccccccccccccccccccc' } }),
    });
    renderWithProviders(<PlaceOrderPage />, { route: '/placeorder', path: '/placeorder', state: makeState({ userInfo: customer, shippingAddress, cartItems: [item] }) });
    expect(await screen.findByText('Order Summary')).toBeInTheDocument();
    expect(screen.getAllByText('$29.97')).toHaveLength(2);
    expect(screen.getAllByText('$0.00')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/order/cccccccccccccccccccccccc'));
    expect(api.callsTo('POST orders')[0]?.body).toEqual({ addressId: home._id, paymentMethod: 'PayPal' });
  });

  it("shows the cart's discount code and its line, sends the code, and shows the server's refusal", async () => {
    const discount = { code: 'SAVE10', amount: 3, message: 'Discount applied: 10% off', isValid: true, kind: 'percent' };
    let reply = { status: 400, body: { message: 'This discount code has been used up', code: 'DISCOUNT_REFUSED' } as object };
    const api = mockApi({ 'GET cart': () => ({ body: { cartItems: [item], discount } }), 'POST orders': () => reply });
    renderWithProviders(<PlaceOrderPage />, { route: '/placeorder', path: '/placeorder', state: makeState({ userInfo: customer, shippingAddress, cartItems: [item] }) });
    expect(await screen.findByTestId('discount-code')).toHaveTextContent('SAVE10');
    expect(screen.getByTestId('discount-amount')).toHaveTextContent('-$3.00');
    expect(screen.getByText('$26.97')).toBeInTheDocument();
    expect(screen.getByTestId('discount-message')).toHaveTextContent('Discount applied: 10% off');
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('This discount code has been used up'));
    expect(api.callsTo('POST orders')[0]?.body).toEqual({ addressId: home._id, paymentMethod: 'PayPal', discountCode: 'SAVE10' });
    reply = { status: 201, body: { _id: 'cccccccccccccccccccccccc' } };
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/order/cccccccccccccccccccccccc'));
  });

  it("shows the server's message, or the generic failure", async () => {
    let reply = { status: 400, body: { message: 'Sorry. Product is out of stock' } };
    mockApi({ 'GET cart': () => ({ body: { cartItems: [item] } }), 'POST orders': () => reply });
    renderWithProviders(<PlaceOrderPage />, { route: '/placeorder', path: '/placeorder', state: makeState({ userInfo: customer, shippingAddress, cartItems: [item] }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Sorry. Product is out of stock'));
    reply = { status: 500, body: { message: 'Internal Server Error' } };
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Order creation failed. Please try again.'));
  });

  it('shows the shipping the server will charge (separately shipped items: Standard shipping), in the total, before the order is placed', async () => {
    const supplierItem = makeCartItem({ price: 10, quantity: 2, variantId: 'dddddddddddddddddddddddd' });
    const api = mockApi({
      'GET cart': () => ({ body: { cartItems: [supplierItem] } }),
      'POST orders/shipping-quote': () => ({ body: { shippingPrice: 4.8, label: 'Standard shipping (7–12 days)', freeOver: null, message: null } }),
    });
    renderWithProviders(<PlaceOrderPage />, { route: '/placeorder', path: '/placeorder', state: makeState({ userInfo: customer, shippingAddress, cartItems: [supplierItem] }) });
    expect(await screen.findByText('$4.80')).toBeInTheDocument();
    expect(screen.getByText('$24.80')).toBeInTheDocument();
    expect(screen.getByTestId('shipping-carrier')).toHaveTextContent('Shipping: Standard shipping (7–12 days)');
    expect(document.body.textContent).not.toMatch(/\bCJ\b|CJPacket|supplier/i);
    expect(api.callsTo('POST orders/shipping-quote')[0]?.body).toEqual({ country: 'USA' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Place Order' })).toBeEnabled());
  });

  it("says so when the freight cannot be quoted: the shop's rate applies", async () => {
    const supplierItem = makeCartItem({ price: 10, quantity: 1, variantId: 'dddddddddddddddddddddddd' });
    mockApi({
      'GET cart': () => ({ body: { cartItems: [supplierItem] } }),
      'POST orders/shipping-quote': () => ({ body: { shippingPrice: 0, label: null, freeOver: null, message: FREIGHT_UNAVAILABLE_MESSAGE } }),
    });
    renderWithProviders(<PlaceOrderPage />, { route: '/placeorder', path: '/placeorder', state: makeState({ userInfo: customer, shippingAddress, cartItems: [supplierItem] }) });
    expect(await screen.findByText(FREIGHT_UNAVAILABLE_MESSAGE)).toBeInTheDocument();
    expect(screen.getAllByText('$0.00')).toHaveLength(2);
  });
});
