import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { makeProduct, mockApi, renderPage } from '../../../test/catalogue-utils';
import { ProductForm } from './ProductForm';
import { SUPPLIER_LOCKED_HINT } from './SupplierLockedFields';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const product = makeProduct({ name: 'Blue Mug', slug: 'blue-mug', images: ['/uploads/extra-1.webp'] });
const onSaved = vi.fn();

function renderForm(p = product) {
  return renderPage(<ProductForm product={p} onSaved={onSaved} />);
}

const update = () => screen.getByRole('button', { name: 'Update' });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ProductForm', () => {
  it('shows every required-field message and blocks the submit while errors exist', async () => {
    const api = mockApi({ 'GET products/categories': () => ({ body: ['Kitchen'] }) });
    renderForm();
    for (const label of ['Name', 'Slug', 'Image File', 'Brand', 'Description']) await userEvent.clear(screen.getByLabelText(label));
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Choose a category…');
    await userEvent.clear(screen.getByLabelText('Price'));
    await userEvent.clear(screen.getByLabelText('Count In Stock'));
    await userEvent.click(update());
    for (const message of [
      'Name is required',
      'Slug is required',
      'Price must be greater than 0',
      'Image is required',
      'Category is required',
      'Brand is required',
      'Count in stock must be greater than 0',
      'Description is required',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(update()).toBeDisabled();
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('rejects a price of 0 and a negative stock count; the inputs have the spec ranges', async () => {
    mockApi({});
    renderForm();
    const price = screen.getByLabelText('Price');
    expect(price).toHaveAttribute('min', '0');
    expect(price).toHaveAttribute('step', '0.01');
    expect(screen.getByLabelText('Count In Stock')).toHaveAttribute('min', '0');
    await userEvent.clear(price);
    await userEvent.type(price, '0');
    await userEvent.clear(screen.getByLabelText('Count In Stock'));
    await userEvent.type(screen.getByLabelText('Count In Stock'), '-1');
    await userEvent.click(update());
    expect(await screen.findByText('Price must be greater than 0')).toBeInTheDocument();
    expect(screen.getByText('Count in stock must be greater than 0')).toBeInTheDocument();
  });

  it('shows Sale Discount only when On Sale is checked and requires 1-100 then', async () => {
    const api = mockApi({ [`PUT products/${product._id}`]: () => ({ body: { message: 'Product updated successfully', product } }) });
    renderForm();
    expect(screen.queryByLabelText('Sale Discount (%)')).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('On Sale'));
    const discount = screen.getByLabelText('Sale Discount (%)');
    expect(discount).toHaveAttribute('min', '0');
    expect(discount).toHaveAttribute('max', '100');
    await userEvent.click(update());
    expect(await screen.findByText('Sale discount must be between 1 and 100')).toBeInTheDocument();
    expect(update()).toBeDisabled();
    await userEvent.type(discount, '150');
    expect(screen.getByText('Sale discount must be between 1 and 100')).toBeInTheDocument();
    await userEvent.clear(discount);
    await userEvent.type(discount, '20');
    await waitFor(() => expect(screen.queryByText('Sale discount must be between 1 and 100')).not.toBeInTheDocument());
    await userEvent.click(update());
    await waitFor(() => expect(api.callsTo(`PUT products/${product._id}`)).toHaveLength(1));
    expect(api.callsTo(`PUT products/${product._id}`)[0]?.body).toMatchObject({ _id: product._id, isOnSale: true, saleDiscount: 20 });
  });

  it('sends every field but an unchanged stock and reports success', async () => {
    const api = mockApi({ [`PUT products/${product._id}`]: () => ({ body: { message: 'Product updated successfully', product } }) });
    renderForm();
    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.type(screen.getByLabelText('Name'), 'Green Mug');
    await userEvent.click(update());
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith('Product updated successfully');
    expect(api.callsTo(`PUT products/${product._id}`)[0]?.body).toEqual({
      _id: product._id,
      name: 'Green Mug',
      slug: 'blue-mug',
      price: 20,
      image: '/uploads/blue-mug.webp',
      images: ['/uploads/extra-1.webp'],
      category: 'Kitchen',
      brand: 'Acme',
      description: 'A sturdy blue mug.',
      isTodaysDeal: false,
      isGift: false,
      isOnSale: false,
      saleDiscount: 0,
    });
  });

  it("a new product's slug follows its name until the slug is typed by hand; clearing the slug follows again", async () => {
    const created = makeProduct({ name: 'Sample name', isDraft: true, category: '' });
    const draft = { ...created, slug: `sample-name-${created._id}` };
    const api = mockApi({
      'GET products/categories': () => ({ body: ['Kitchen', 'Lighting'] }),
      [`PUT products/${draft._id}`]: () => ({ body: { message: 'Product updated successfully', product: draft } }),
    });
    renderForm(draft);
    const name = screen.getByLabelText('Name');
    const slug = screen.getByLabelText('Slug');
    expect(screen.getByTestId('slug-follows')).toHaveTextContent('Follows the name until you edit it.');
    await userEvent.clear(name);
    await userEvent.type(name, 'Desk Lamp & Shade');
    expect(slug).toHaveValue('desk-lamp-and-shade');

    // Typed by hand: the name no longer moves it.
    await userEvent.clear(slug);
    await userEvent.type(slug, 'my-lamp');
    expect(screen.queryByTestId('slug-follows')).not.toBeInTheDocument();
    await userEvent.type(name, ' XL');
    expect(slug).toHaveValue('my-lamp');

    // Emptied: it follows the name again from the next change.
    await userEvent.clear(slug);
    expect(screen.getByTestId('slug-follows')).toBeInTheDocument();
    await userEvent.type(name, 'L');
    expect(slug).toHaveValue('desk-lamp-and-shade-xll');

    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Lighting');
    await userEvent.click(update());
    await waitFor(() => expect(api.callsTo(`PUT products/${draft._id}`)).toHaveLength(1));
    expect(api.callsTo(`PUT products/${draft._id}`)[0]?.body).toMatchObject({ name: 'Desk Lamp & Shade XLL', slug: 'desk-lamp-and-shade-xll', category: 'Lighting' });
  });

  it("the category is one of the shop's (a draft starts with none chosen); New category… creates one only on purpose", async () => {
    const draft = makeProduct({ isDraft: true, category: '' });
    const api = mockApi({
      'GET products/categories': () => ({ body: ['Kitchen', 'Lighting'] }),
      [`PUT products/${draft._id}`]: () => ({ body: { message: 'Product updated successfully', product: draft } }),
    });
    renderForm(draft);
    const category = screen.getByRole('combobox', { name: 'Category' });
    expect(category).toHaveValue('');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Lighting' })).toBeInTheDocument());
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a category…', 'Kitchen', 'Lighting', 'New category…']);
    await userEvent.click(update());
    expect(await screen.findByText('Category is required')).toBeInTheDocument();
    expect(api.callsTo(`PUT products/${draft._id}`)).toHaveLength(0);

    await userEvent.selectOptions(category, 'New category…');
    const fresh = screen.getByRole('textbox', { name: 'New category name' });
    await waitFor(() => expect(fresh).toHaveFocus());
    await userEvent.type(fresh, 'Desk Lights');
    // Back to the list and forth again: nothing typed becomes a category by accident.
    await userEvent.click(screen.getByRole('button', { name: 'Choose an existing category' }));
    expect(screen.getByRole('combobox', { name: 'Category' })).toHaveValue('');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'New category…');
    await userEvent.type(screen.getByRole('textbox', { name: 'New category name' }), 'Desk Lights');
    await userEvent.click(update());
    await waitFor(() => expect(api.callsTo(`PUT products/${draft._id}`)).toHaveLength(1));
    expect(api.callsTo(`PUT products/${draft._id}`)[0]?.body).toMatchObject({ category: 'Desk Lights' });
  });

  it("keeps a published product's category selected even when no other product has it", async () => {
    mockApi({ 'GET products/categories': () => ({ body: ['Kitchen'] }) });
    renderForm(makeProduct({ category: 'Garden' }));
    expect(screen.getByRole('combobox', { name: 'Category' })).toHaveValue('Garden');
    expect(screen.queryByTestId('slug-follows')).not.toBeInTheDocument();
  });

  it('does not send an unchanged stock, even when the stock is typed back to the loaded value', async () => {
    const api = mockApi({ [`PUT products/${product._id}`]: () => ({ body: { message: 'Product updated successfully', product } }) });
    renderForm();
    const stock = screen.getByLabelText('Count In Stock');
    await userEvent.clear(stock);
    await userEvent.type(stock, '5');
    await userEvent.clear(screen.getByLabelText('Description'));
    await userEvent.type(screen.getByLabelText('Description'), 'A new description.');
    await userEvent.click(update());
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = api.callsTo(`PUT products/${product._id}`)[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ description: 'A new description.' });
    expect(body).not.toHaveProperty('countInStock');
    expect(body).not.toHaveProperty('countInStockWas');
  });

  it('sends a changed stock with the stock it loaded; after a 409 it reads the stock again and the next save overrides it', async () => {
    const message = 'Count in stock changed from 5 to 3 since the form was opened (orders came in). Check the stock and save again.';
    let puts = 0;
    const api = mockApi({
      [`PUT products/${product._id}`]: () => {
        puts += 1;
        return puts === 1
          ? { status: 409, body: { message, code: 'STOCK_CHANGED', fieldErrors: { countInStock: message } } }
          : { body: { message: 'Product updated successfully', product } };
      },
      [`GET products/${product._id}`]: () => ({ body: { ...product, countInStock: 3 } }),
    });
    renderForm();
    const stock = screen.getByLabelText('Count In Stock');
    await userEvent.clear(stock);
    await userEvent.type(stock, '12');
    await userEvent.click(update());
    expect(await screen.findByText(message)).toHaveClass('invalid-feedback');
    expect(onSaved).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
    expect(api.callsTo(`PUT products/${product._id}`)[0]?.body).toMatchObject({ countInStock: 12, countInStockWas: 5 });
    await waitFor(() => expect(api.callsTo(`GET products/${product._id}`)).toHaveLength(1));
    // The administrator checks the stock (the message clears on the change) and saves again.
    await userEvent.clear(stock);
    await userEvent.type(stock, '10');
    await userEvent.click(update());
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.callsTo(`PUT products/${product._id}`)[1]?.body).toMatchObject({ countInStock: 10, countInStockWas: 3 });
  });

  describe('a supplier (CJ) product', () => {
    const supplied = makeProduct({
      name: 'Supplier Lamp', slug: 'supplier-lamp', price: 26.99, finalPrice: 26.99, countInStock: 100, cjData: { pid: 'P-1', vid: 'V-1', variants: [{ vid: 'V-1' }] },
    });

    it('shows price, sale and stock read-only with the hint and a link to its CJ product page', async () => {
      mockApi({});
      renderForm(supplied);
      expect(screen.getByLabelText('Price')).toHaveAttribute('readonly');
      expect(screen.getByLabelText('Price')).toHaveValue('$26.99');
      expect(screen.getByLabelText('Count In Stock')).toHaveAttribute('readonly');
      expect(screen.getByLabelText('Count In Stock')).toHaveValue('100');
      expect(screen.getByLabelText('On Sale')).toBeDisabled();
      expect(screen.queryByLabelText('Sale Discount (%)')).not.toBeInTheDocument();
      expect(SUPPLIER_LOCKED_HINT).toBe('Price, sale and stock of a supplier product are set in the supplier catalogue (Admin → CJ Products)');
      expect(screen.getByLabelText('Price')).toHaveAccessibleDescription(expect.stringContaining(SUPPLIER_LOCKED_HINT));
      expect(screen.getByRole('link', { name: 'Edit price, sale and stock in CJ Products' })).toHaveAttribute('href', '/admin/cj-product-edit/P-1');
      // The flags it still saves are editable.
      expect(screen.getByLabelText("Today's Deal")).toBeEnabled();
      expect(screen.getByLabelText('Gift')).toBeEnabled();
    });

    it('shows the sale discount read-only when on sale', async () => {
      mockApi({});
      renderForm(makeProduct({ ...supplied, isOnSale: true, saleDiscount: 10 }));
      expect(screen.getByLabelText('On Sale')).toBeChecked();
      expect(screen.getByLabelText('Sale Discount (%)')).toHaveAttribute('readonly');
      expect(screen.getByLabelText('Sale Discount (%)')).toHaveValue('10');
    });

    it('saves the other fields without price, sale and stock', async () => {
      const api = mockApi({ [`PUT products/${supplied._id}`]: () => ({ body: { message: 'Product updated successfully', product: supplied } }) });
      renderForm(supplied);
      await userEvent.clear(screen.getByLabelText('Description'));
      await userEvent.type(screen.getByLabelText('Description'), 'Warm light.');
      await userEvent.click(screen.getByLabelText('Gift'));
      await userEvent.click(update());
      await waitFor(() => expect(onSaved).toHaveBeenCalled());
      expect(api.callsTo(`PUT products/${supplied._id}`)[0]?.body).toEqual({
        _id: supplied._id, name: 'Supplier Lamp', slug: 'supplier-lamp', image: supplied.image, images: [], category: 'Kitchen', brand: 'Acme',
        description: 'Warm light.', isTodaysDeal: false, isGift: true,
      });
    });

    it("shows the server's refusal of a supplier product's price, sale or stock in a toast", async () => {
      const message = 'Price, sale and stock of a supplier product are set in the supplier catalogue (Admin → CJ Products)';
      mockApi({
        [`PUT products/${supplied._id}`]: () => ({ status: 400, body: { message, code: 'SUPPLIER_PRODUCT_FIELDS', fieldErrors: { price: 'Price of a supplier product is set in the supplier catalogue (Admin → CJ Products)' } } }),
      });
      renderForm(supplied);
      await userEvent.click(update());
      await waitFor(() => expect(toast.error).toHaveBeenCalledWith(message));
      expect(onSaved).not.toHaveBeenCalled();
    });
  });

  it("shows the server's field errors beside their fields", async () => {
    mockApi({ [`PUT products/${product._id}`]: () => ({ status: 400, body: { message: 'Slug is already in use', fieldErrors: { slug: 'Slug is already in use' } } }) });
    renderForm();
    await userEvent.click(update());
    expect(await screen.findByText('Slug is already in use')).toHaveClass('invalid-feedback');
    expect(screen.getByLabelText('Slug')).toHaveAttribute('aria-invalid', 'true');
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('refuses a price of less than a cent and a discount that makes the product free, before calling the server', async () => {
    const api = mockApi({});
    renderForm();
    const price = screen.getByLabelText('Price');
    await userEvent.clear(price);
    await userEvent.type(price, '0.004');
    await userEvent.click(update());
    expect(await screen.findByText('Price must have at most 2 decimal places')).toBeInTheDocument();
    await userEvent.clear(price);
    await userEvent.type(price, '0');
    expect(await screen.findByText('Price must be greater than 0')).toBeInTheDocument();
    await userEvent.clear(price);
    await userEvent.type(price, '20');
    await userEvent.click(screen.getByLabelText('On Sale'));
    await userEvent.type(screen.getByLabelText('Sale Discount (%)'), '100');
    await userEvent.click(update());
    const message = await screen.findByText('Price after the sale discount must be at least $0.01');
    expect(message).toHaveAttribute('id', screen.getByLabelText('Sale Discount (%)').getAttribute('aria-describedby'));
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('reads the numbers typed with the server\'s parsers (decimal notation only) and checks the image address, before calling the server', async () => {
    const api = mockApi({});
    renderForm();
    const fill = async (label: string, text: string) => {
      await userEvent.clear(screen.getByLabelText(label));
      await userEvent.type(screen.getByLabelText(label), text);
    };
    // A number input keeps "1e1" as its value (it is a valid floating-point number in HTML); the shop does not take it.
    await fill('Price', '1e1');
    await fill('Count In Stock', '2e1');
    await fill('Image File', 'javascript:alert(1)');
    await userEvent.click(update());
    expect(await screen.findByText(PRODUCT_FORM_MESSAGES.priceFormat)).toHaveClass('invalid-feedback');
    expect(screen.getByText(PRODUCT_FORM_MESSAGES.countInStockFormat)).toBeInTheDocument();
    expect(screen.getByText(PRODUCT_FORM_MESSAGES.imageUrl)).toBeInTheDocument();
    expect(screen.getByLabelText('Image File')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    await fill('Price', '10');
    await fill('Count In Stock', '20');
    await fill('Image File', '/uploads/lamp-2.webp');
    await waitFor(() => expect(screen.queryByText(PRODUCT_FORM_MESSAGES.priceFormat)).not.toBeInTheDocument());
    expect(screen.queryByText(PRODUCT_FORM_MESSAGES.imageUrl)).not.toBeInTheDocument();
  });

  it('shows the server\'s decimal and image messages beside their fields', async () => {
    mockApi({
      [`PUT products/${product._id}`]: () => ({
        status: 400,
        body: { message: PRODUCT_FORM_MESSAGES.priceDecimals, code: 'VALIDATION_ERROR', fieldErrors: { price: PRODUCT_FORM_MESSAGES.priceDecimals, images: PRODUCT_FORM_MESSAGES.imagesUrl } },
      }),
    });
    renderForm();
    await userEvent.click(update());
    expect(await screen.findByText(PRODUCT_FORM_MESSAGES.priceDecimals)).toHaveClass('invalid-feedback');
    expect(screen.getByLabelText('Price')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText(PRODUCT_FORM_MESSAGES.imagesUrl)).toHaveLength(1);
  });

  it("maps a raw server text to the field's spec message, shown once beside the field and nowhere else", async () => {
    mockApi({
      [`PUT products/${product._id}`]: () => ({
        status: 400,
        body: { message: 'body/price must be >= 0', code: 'VALIDATION_ERROR', fieldErrors: { price: 'body/price must be >= 0', countInStock: 'Expected number, received string' } },
      }),
    });
    renderForm();
    await userEvent.click(update());
    const price = await screen.findByText('Price must be greater than 0');
    expect(price).toHaveClass('invalid-feedback');
    expect(screen.getAllByText('Price must be greater than 0')).toHaveLength(1);
    expect(screen.getByText('Count in stock must be greater than 0')).toBeInTheDocument();
    expect(screen.queryByText(/body\/price|Expected number/)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(toast.error).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Price')).toHaveFocus();
  });

  it("shows the server's money rule next to the discount once, with no toast", async () => {
    const message = 'Price after the sale discount must be at least $0.01';
    mockApi({ [`PUT products/${product._id}`]: () => ({ status: 400, body: { message, code: 'VALIDATION_ERROR', fieldErrors: { saleDiscount: message } } }) });
    renderForm(makeProduct({ ...product, isOnSale: true, saleDiscount: 10 }));
    await userEvent.click(update());
    expect(await screen.findByText(message)).toHaveClass('invalid-feedback');
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("says 'Failed to update product' on an unexpected failure", async () => {
    mockApi({ [`PUT products/${product._id}`]: () => ({ status: 500, body: { message: 'Internal Server Error' } }) });
    renderForm();
    await userEvent.click(update());
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to update product'));
  });

  it('uploads the main image, shows the notice for 2 s, and removes an additional image with its notice', async () => {
    const api = mockApi({ 'POST upload': () => ({ status: 201, body: { secure_url: '/uploads/new.webp' } }) });
    renderForm();
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'new.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Upload Image'), file);
    expect(await screen.findByText('Image uploaded successfully. Click Update to apply it.')).toBeInTheDocument();
    expect(screen.getByLabelText('Image File')).toHaveValue('/uploads/new.webp');
    expect(screen.getByRole('img', { name: 'Main image preview' })).toHaveAttribute('src', '/uploads/new.webp');
    const sent = api.callsTo('POST upload')[0]?.body as FormData;
    expect(sent.get('file')).toBeInstanceOf(File);
    await waitFor(() => expect(screen.queryByText('Image uploaded successfully. Click Update to apply it.')).not.toBeInTheDocument(), { timeout: 3000 });

    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Remove image /uploads/extra-1.webp' }));
    expect(screen.getByText('Image removed successfully. Click Update to apply it.')).toBeInTheDocument();
    expect(screen.getByText('No additional images')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1900));
    expect(screen.getByText('Image removed successfully. Click Update to apply it.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Image removed successfully. Click Update to apply it.')).not.toBeInTheDocument();
  });
});
