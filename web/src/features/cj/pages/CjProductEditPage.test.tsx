import { PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin, customer } from '../../../test/render';
import { makeSavedItem, makeSupplierProduct } from '../test-data';
import CjProductEditPage from './CjProductEditPage';
import CjProductsPublicPage from './CjProductsPublicPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const product = makeSupplierProduct();
const renderEdit = (id: string) =>
  renderPage(<CjProductEditPage />, { route: `/admin/cj-product-edit/${id}`, path: '/admin/cj-product-edit/:pid', state: stateWith(admin) });
const save = () => screen.getByRole('button', { name: 'Save CJ Product' });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Edit CJ Product', () => {
  it('loads a supplier product by pid with the spec defaults, saves it and goes back to the list after 2 s', async () => {
    const saved = makeSavedItem();
    const api = mockApi({
      [`GET cj/products/${product.pid}`]: () => ({ body: product }),
      'GET cj/pricing': () => ({ body: { pricing: { markupPercent: 100, fixedAmount: 0, rounding: '.00' } } }),
      'POST cj/products/save': () => ({ status: 201, body: { message: 'Product saved successfully!', product: saved, created: true } }),
    });
    renderEdit(product.pid);
    expect(await screen.findByRole('heading', { name: `Edit CJ Product ${product.pid}` })).toBeInTheDocument();
    expect(await screen.findByLabelText('Name')).toHaveValue('Insulated Travel Mug');
    expect(screen.getByLabelText('Slug')).toHaveValue('insulated-travel-mug');
    // The pricing rule prices a new import (cost $4.50, markup 100 %, .00), not the cost.
    expect(screen.getByLabelText('Price')).toHaveValue(9);
    expect(screen.getByLabelText('Count In Stock')).toHaveValue(100);
    expect(screen.getByLabelText('Category')).toHaveValue('Drinkware');
    expect(screen.getByLabelText('Main Image')).toHaveValue('/api/cj/offline-images/v1/mug-0.webp');
    expect(screen.getByRole('radio', { name: /Black/ })).toBeChecked();
    expect(screen.getByTestId('cj-margin')).toHaveTextContent('Supplier cost $4.50 · Margin $4.50 (50%)');
    expect(screen.getByLabelText('Price of Red')).toHaveValue(12);

    await userEvent.click(screen.getByRole('radio', { name: /Red/ }));
    await userEvent.clear(screen.getByLabelText('Price'));
    await userEvent.type(screen.getByLabelText('Price'), '15');
    expect(screen.getByTestId('cj-margin')).toHaveTextContent('Supplier cost $6.00 · Margin $9.00 (60%)');
    // The supplier's name is not the brand (issue 23): 'Unbranded' until the administrator types one, never 'Brand is required'.
    expect(screen.getByLabelText('Brand')).toHaveValue('Unbranded');
    await userEvent.clear(screen.getByLabelText('Brand'));
    await userEvent.type(screen.getByLabelText('Brand'), 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Remove image /api/cj/offline-images/v1/mug-1.webp' }));

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await userEvent.click(save());
    expect(await screen.findByText('Product saved successfully!')).toBeInTheDocument();
    expect(api.callsTo('POST cj/products/save')[0]!.body).toEqual({
      pid: product.pid, isSaved: true, vid: 'VID-RED', name: 'Insulated Travel Mug', slug: 'insulated-travel-mug', price: 15,
      image: '/api/cj/offline-images/v1/mug-0.webp', images: ['/api/cj/offline-images/v1/mug-2.webp'], category: 'Drinkware', brand: 'Acme', countInStock: 100,
      description: 'Keeps drinks hot.', isTodaysDeal: false, isGift: false, isOnSale: false, saleDiscount: 0,
      variants: [{ vid: 'VID-BLACK', price: 9, countInStock: 100, enabled: true }],
    });
    expect(screen.getByTestId('location')).toHaveTextContent(`/admin/cj-product-edit/${product.pid}`);
    await act(async () => { vi.advanceTimersByTime(1900); });
    expect(screen.getByTestId('location')).toHaveTextContent(`/admin/cj-product-edit/${product.pid}`);
    await act(async () => { vi.advanceTimersByTime(200); });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/cj-products$/));
  });

  it("starts in the shop's closest category; when none is close, with none chosen and the supplier's path shown", async () => {
    const far = makeSupplierProduct({ categoryName: 'Computer & Office > Office & School Supplies > Notebooks', suggestedCategory: { category: 'Notebooks', isExisting: false } });
    const api = mockApi({
      [`GET cj/products/${far.pid}`]: () => ({ body: far }),
      'GET products/categories': () => ({ body: ['Drinkware', 'Garden'] }),
      'POST cj/products/save': () => ({ status: 201, body: { message: 'Product saved successfully!', product: makeSavedItem(), created: true } }),
    });
    renderEdit(far.pid);
    const category = await screen.findByRole('combobox', { name: 'Category' });
    expect(category).toHaveValue('');
    expect(screen.getByText(/The supplier's category: Computer & Office > Office & School Supplies > Notebooks\./)).toHaveTextContent(
      "None of the shop's categories is close: choose one, or New category… to add one.",
    );
    await userEvent.click(save());
    expect(await screen.findByText('Category is required')).toBeInTheDocument();
    expect(api.callsTo('POST cj/products/save')).toHaveLength(0);
    await waitFor(() => expect(screen.getByRole('option', { name: 'Garden' })).toBeInTheDocument());
    await userEvent.selectOptions(category, 'Garden');
    await userEvent.click(save());
    await waitFor(() => expect(api.callsTo('POST cj/products/save')).toHaveLength(1));
    // The brand was never typed: 'Unbranded' goes, not 'Brand is required'.
    expect(api.callsTo('POST cj/products/save')[0]!.body).toMatchObject({ category: 'Garden', brand: 'Unbranded' });
  });

  it('loads a saved product by its 24-character id', async () => {
    const saved = makeSavedItem({ name: 'Our Mug', price: 19.99 });
    const api = mockApi({ [`GET cj/products/saved/${saved._id}`]: () => ({ body: saved }) });
    renderEdit(saved._id);
    expect(await screen.findByRole('heading', { name: `Edit CJ Product ${saved._id}` })).toBeInTheDocument();
    expect(await screen.findByLabelText('Name')).toHaveValue('Our Mug');
    expect(screen.getByRole('radio', { name: /Red/ })).toBeChecked();
    expect(screen.getByText('Saved')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh from supplier' })).toBeInTheDocument();
    expect(api.calls.map((c) => `${c.method} ${c.path}`).filter((c) => c !== 'GET products/categories')).toEqual([`GET cj/products/saved/${saved._id}`]);
  });

  it("validates with the product form's rules before saving", async () => {
    const api = mockApi({ [`GET cj/products/${product.pid}`]: () => ({ body: product }) });
    renderEdit(product.pid);
    await screen.findByLabelText('Name');
    for (const label of ['Name', 'Slug', 'Brand', 'Description', 'Main Image']) await userEvent.clear(screen.getByLabelText(label));
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Choose a category…');
    await userEvent.clear(screen.getByLabelText('Price'));
    await userEvent.type(screen.getByLabelText('Price'), '0');
    await userEvent.click(save());
    for (const message of ['Name is required', 'Slug is required', 'Price must be greater than 0', 'Image is required', 'Category is required', 'Brand is required', 'Description is required']) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    await userEvent.click(screen.getByLabelText('On Sale'));
    expect(screen.getByLabelText('Sale Discount (%)')).toHaveAttribute('max', '100');
    expect(save()).toBeDisabled();
    expect(api.callsTo('POST cj/products/save')).toHaveLength(0);
  });

  it("says 'Product variant ID is missing' for a supplier product without variants", async () => {
    const bare = makeSupplierProduct({ variants: [] });
    const api = mockApi({ [`GET cj/products/${bare.pid}`]: () => ({ body: bare }) });
    renderEdit(bare.pid);
    await screen.findByLabelText('Brand');
    await userEvent.click(await screen.findByRole('button', { name: 'Save CJ Product' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Product variant ID is missing');
    expect(api.callsTo('POST cj/products/save')).toHaveLength(0);
  });

  it('shows the server field errors beside their fields', async () => {
    mockApi({
      [`GET cj/products/${product.pid}`]: () => ({ body: product }),
      'POST cj/products/save': () => ({ status: 409, body: { message: 'Slug is already in use', code: 'CONFLICT', fieldErrors: { slug: 'Slug is already in use' } } }),
    });
    renderEdit(product.pid);
    await screen.findByLabelText('Brand');
    await userEvent.click(await screen.findByRole('button', { name: 'Save CJ Product' }));
    expect(await screen.findByText('Slug is already in use')).toBeInTheDocument();
    expect(screen.getByLabelText('Slug')).toHaveAttribute('aria-invalid', 'true');
  });

  it('reads the price typed with the server\'s parser, and shows the server\'s image and number messages beside their fields', async () => {
    const api = mockApi({
      [`GET cj/products/${product.pid}`]: () => ({ body: product }),
      'POST cj/products/save': () => ({
        status: 400,
        body: { message: PRODUCT_FORM_MESSAGES.imagesUrl, code: 'VALIDATION_ERROR', fieldErrors: { images: PRODUCT_FORM_MESSAGES.imagesUrl, countInStock: PRODUCT_FORM_MESSAGES.countInStockFormat } },
      }),
    });
    renderEdit(product.pid);
    await screen.findByLabelText('Brand');
    const price = screen.getByLabelText('Price');
    await userEvent.clear(price);
    await userEvent.type(price, '1e1');
    await userEvent.click(save());
    expect(await screen.findByText(PRODUCT_FORM_MESSAGES.priceFormat)).toHaveClass('invalid-feedback');
    expect(api.callsTo('POST cj/products/save')).toHaveLength(0);
    await userEvent.clear(price);
    await userEvent.type(price, '12.50');
    await waitFor(() => expect(screen.queryByText(PRODUCT_FORM_MESSAGES.priceFormat)).not.toBeInTheDocument());
    await userEvent.click(save());
    expect(await screen.findByText(PRODUCT_FORM_MESSAGES.imagesUrl)).toHaveClass('invalid-feedback');
    expect(screen.getByText(PRODUCT_FORM_MESSAGES.countInStockFormat)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Additional Images' })).toHaveAccessibleDescription(PRODUCT_FORM_MESSAGES.imagesUrl);
    expect(api.callsTo('POST cj/products/save')[0]!.body).toMatchObject({ price: 12.5 });
  });

  it('asks before saving a price below the supplier cost, and sends the confirmation', async () => {
    let calls = 0;
    const api = mockApi({
      [`GET cj/products/${product.pid}`]: () => ({ body: product }),
      'POST cj/products/save': () => (calls++ === 0
        ? { status: 400, body: { message: 'Price $0.01 is below the supplier cost $4.50', code: 'BELOW_SUPPLIER_COST' } }
        : { status: 200, body: { message: 'Product saved successfully!', product: makeSavedItem(), created: false } }),
    });
    renderEdit(product.pid);
    await screen.findByLabelText('Brand');
    await userEvent.click(save());
    const dialog = await screen.findByRole('dialog', { name: "Sell below the supplier's cost?" });
    expect(dialog).toHaveTextContent('Price $0.01 is below the supplier cost $4.50');
    await userEvent.click(screen.getByRole('button', { name: 'Save anyway' }));
    expect(await screen.findByText('Product saved successfully!')).toBeInTheDocument();
    const sent = api.callsTo('POST cj/products/save');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.body).not.toHaveProperty('confirmBelowCost');
    expect(sent[1]!.body).toMatchObject({ confirmBelowCost: true });
  });

  it('shows a missing supplier product as an error', async () => {
    mockApi({ 'GET cj/products/NOPE': () => ({ status: 404, body: { message: 'Supplier product not found' } }) });
    renderEdit('NOPE');
    expect(await screen.findByRole('alert')).toHaveTextContent('Supplier product not found');
  });
});

describe('/cj-products (outside the guarded routes)', () => {
  const renderPublic = (route: string, state = stateWith(admin)) => renderPage(<CjProductsPublicPage />, { route, path: '/cj-products', state });

  it('sends anyone but an administrator to /signin', async () => {
    mockApi({ 'GET users/current': () => ({ status: 401, body: { message: 'Not authorized, please sign in' } }) });
    renderPublic(`/cj-products?pid=${product.pid}`, { ...stateWith(customer) });
    // The admin guard keeps the page to come back to (issue 8).
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin\?redirect=\/cj-products%3Fpid%3D/));
    expect(screen.queryByRole('button', { name: 'Save CJ Product' })).not.toBeInTheDocument();
  });

  it('shows an administrator the form for ?pid=, and "Product ID is missing" without one', async () => {
    mockApi({ [`GET cj/products/${product.pid}`]: () => ({ body: product }) });
    const { unmount } = renderPublic(`/cj-products?pid=${product.pid}`);
    expect(await screen.findByRole('button', { name: 'Save CJ Product' })).toBeInTheDocument();
    unmount();
    renderPublic('/cj-products');
    expect(await screen.findByRole('alert')).toHaveTextContent('Product ID is missing');
  });
});
