import { PRODUCT_OPTION_MESSAGES as T, type Product, type SellableVariant } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, mockApi, renderPage } from '../../../test/catalogue-utils';
import { ProductForm } from './ProductForm';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const plain = makeProduct({ name: 'Classic Tee', slug: 'classic-tee', price: 20, countInStock: 7, images: ['/uploads/tee-red.webp'] });
const onSaved = vi.fn();
const renderForm = (p: Product) => renderPage(<ProductForm product={p} onSaved={onSaved} />);
const update = () => screen.getByRole('button', { name: 'Update' });
const saved = (p: Product) => ({ body: { message: 'Product updated successfully', product: p } });

const variant = (id: string, size: string, colour: string, price: number, stock: number, over: Partial<SellableVariant> = {}): SellableVariant => ({
  _id: id.repeat(24), vid: id.repeat(24), name: `${size} / ${colour}`, variantKey: '', image: '', price, finalPrice: price,
  countInStock: stock, enabled: true, options: { Size: size, Colour: colour }, sku: '', ...over,
});

/** Adds an option with its values through the form, as an administrator types them. */
async function addOption(index: number, name: string, values: string) {
  await userEvent.click(screen.getByRole('button', { name: 'Add option' }));
  const option = screen.getByTestId(`option-${index}`);
  await userEvent.type(within(option).getByLabelText('Option name'), name);
  await userEvent.type(within(option).getByRole('textbox', { name: `Add values to ${name}` }), `${values}{Enter}`);
}

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('ProductForm: options and variants', () => {
  it('turns Size x Colour into a table of variants, one row per combination, and sends them with the options', async () => {
    const api = mockApi({ [`PUT products/${plain._id}`]: () => saved(plain) });
    const user = userEvent.setup();
    renderForm(plain);
    expect(screen.queryByRole('table', { name: 'Variants' })).not.toBeInTheDocument();

    await addOption(0, 'Size', 'S, M, L');
    // Enter added the values (and did not save the form); the same value again is not added twice.
    expect(api.callsTo(`PUT products/${plain._id}`)).toHaveLength(0);
    const size = screen.getByTestId('option-0');
    await user.type(within(size).getByRole('textbox', { name: 'Add values to Size' }), 'm{Enter}');
    expect(within(size).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['S', 'M', 'L']);
    await addOption(1, 'Colour', 'Red,Blue');

    const table = screen.getByRole('table', { name: 'Variants' });
    const rows = within(table).getAllByTestId('variant-row');
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['S / RedNew', 'S / BlueNew', 'M / RedNew', 'M / BlueNew', 'L / RedNew', 'L / BlueNew']);
    // Every new variant starts at the product's price; the product's price and stock become the variants'.
    expect(screen.getByLabelText('Price of M / Red')).toHaveValue(20);
    expect(screen.queryByLabelText('Price')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Count In Stock')).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Price of M / Red'));
    await user.type(screen.getByLabelText('Price of M / Red'), '22.5');
    await user.clear(screen.getByLabelText('Stock of M / Red'));
    await user.type(screen.getByLabelText('Stock of M / Red'), '4');
    await user.type(screen.getByLabelText('SKU of M / Red'), 'TEE-M-RED');
    await user.selectOptions(screen.getByLabelText('Image of M / Red'), '/uploads/tee-red.webp');
    await user.click(screen.getByRole('switch', { name: 'Sell L / Blue' }));
    expect(screen.getByTestId('variant-price')).toHaveTextContent('$20.00 – $22.50');
    expect(screen.getByTestId('variant-stock')).toHaveTextContent('4');

    await user.click(update());
    await waitFor(() => expect(api.callsTo(`PUT products/${plain._id}`)).toHaveLength(1));
    const body = api.callsTo(`PUT products/${plain._id}`)[0]!.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('price');
    expect(body).not.toHaveProperty('countInStock');
    expect(body.options).toEqual([{ name: 'Size', values: ['S', 'M', 'L'] }, { name: 'Colour', values: ['Red', 'Blue'] }]);
    expect(body.variants).toHaveLength(6);
    expect((body.variants as unknown[])[2]).toEqual({
      options: { Size: 'M', Colour: 'Red' }, price: '22.5', countInStock: '4', sku: 'TEE-M-RED', image: '/uploads/tee-red.webp', enabled: true,
    });
    expect((body.variants as Array<{ enabled: boolean }>)[5]!.enabled).toBe(false);
    expect(toast.success).toHaveBeenCalledWith('Product updated successfully');
  });

  it("checks the server's rules before saving: each error beside its field, the first one focused, nothing sent", async () => {
    const api = mockApi({});
    const user = userEvent.setup();
    renderForm(plain);
    await addOption(0, 'Size', 'S, M');
    await user.click(screen.getByRole('button', { name: 'Add option' }));
    // The new option's name takes the focus.
    expect(within(screen.getByTestId('option-1')).getByLabelText('Option name')).toHaveFocus();
    await user.clear(screen.getByLabelText('Price of M'));
    await user.click(update());

    expect(await screen.findByText(T.optionName)).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(T.optionName);
    const name = within(screen.getByTestId('option-1')).getByLabelText('Option name');
    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    // Removing the empty option leaves the price error, checked again as the form changes.
    await user.click(screen.getByRole('button', { name: 'Remove option 2' }));
    expect(screen.getByRole('button', { name: 'Add option' })).toHaveFocus();
    expect(await screen.findByText('Price must be greater than 0')).toBeInTheDocument();
    expect(screen.getByLabelText('Price of M')).toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByLabelText('Price of M'), '21');
    await waitFor(() => expect(screen.queryByText('Price must be greater than 0')).not.toBeInTheDocument());
  });

  it('loads a product with options: unchanged stock is left out, a changed one carries the stock loaded, a removed value drops its rows', async () => {
    const tee = makeProduct({
      name: 'Classic Tee', slug: 'classic-tee', price: 20, countInStock: 8,
      options: [{ name: 'Size', values: ['S', 'M'] }, { name: 'Colour', values: ['Red'] }],
      priceRange: { min: 20, max: 22 },
      productVariants: [variant('a', 'S', 'Red', 20, 5, { sku: 'S-R' }), variant('b', 'M', 'Red', 22, 3, { enabled: false })],
    });
    const api = mockApi({ [`PUT products/${tee._id}`]: () => saved(tee) });
    const user = userEvent.setup();
    renderForm(tee);
    expect(screen.getByLabelText('Price of S / Red')).toHaveValue(20);
    expect(screen.getByRole('switch', { name: 'Sell M / Red' })).not.toBeChecked();
    expect(screen.getByTestId('variant-stock')).toHaveTextContent('5');

    await user.clear(screen.getByLabelText('Stock of M / Red'));
    await user.type(screen.getByLabelText('Stock of M / Red'), '9');
    await user.click(update());
    await waitFor(() => expect(api.callsTo(`PUT products/${tee._id}`)).toHaveLength(1));
    expect((api.callsTo(`PUT products/${tee._id}`)[0]!.body as { variants: unknown[] }).variants).toEqual([
      { _id: 'a'.repeat(24), options: { Size: 'S', Colour: 'Red' }, price: '20', sku: 'S-R', image: '', enabled: true },
      { _id: 'b'.repeat(24), options: { Size: 'M', Colour: 'Red' }, price: '22', countInStock: '9', countInStockWas: 3, sku: '', image: '', enabled: false },
    ]);

    // Size M goes: its row leaves the table (the server deletes it, or switches it off if ordered).
    await user.click(screen.getByRole('button', { name: 'Remove M from Size' }));
    expect(screen.queryByLabelText('Price of M / Red')).not.toBeInTheDocument();
    await user.click(update());
    await waitFor(() => expect(api.callsTo(`PUT products/${tee._id}`)).toHaveLength(2));
    const second = api.callsTo(`PUT products/${tee._id}`)[1]!.body as { options: unknown; variants: Array<{ _id: string }> };
    expect(second.options).toEqual([{ name: 'Size', values: ['S'] }, { name: 'Colour', values: ['Red'] }]);
    expect(second.variants.map((v) => v._id)).toEqual(['a'.repeat(24)]);
  });

  it('removing every option sends none, and a refusal about a variant is shown beside it', async () => {
    const tee = makeProduct({
      name: 'Classic Tee', slug: 'classic-tee', price: 20, countInStock: 5,
      options: [{ name: 'Size', values: ['S'] }],
      productVariants: [{ ...variant('a', 'S', 'Red', 20, 5), name: 'S', options: { Size: 'S' } }],
    });
    const api = mockApi({
      [`PUT products/${tee._id}`]: (call) => {
        const body = call.body as { options: unknown[] };
        if (body.options.length) return { status: 400, body: { message: `S: ${T.skuTaken('X')}`, fieldErrors: { 'variants.0.sku': T.skuTaken('X') } } };
        return { status: 409, body: { message: T.orderedVariants, code: 'VARIANTS_HAVE_ORDERS', fieldErrors: { options: T.orderedVariants } } };
      },
    });
    const user = userEvent.setup();
    renderForm(tee);
    await user.click(update());
    expect(await screen.findByText(T.skuTaken('X'))).toBeInTheDocument();
    expect(screen.getByLabelText('SKU of S')).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Remove Size' }));
    expect(screen.getByLabelText('Price')).toBeInTheDocument();
    await user.click(update());
    await waitFor(() => expect(api.callsTo(`PUT products/${tee._id}`)).toHaveLength(2));
    expect(api.callsTo(`PUT products/${tee._id}`)[1]!.body).toMatchObject({ options: [], variants: [], price: 20 });
    expect(await screen.findByText(T.orderedVariants)).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });
});
