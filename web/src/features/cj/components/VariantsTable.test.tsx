import type { SavedVariant } from '@shop/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin } from '../../../test/render';
import CjProductEditPage from '../pages/CjProductEditPage';
import { makeSavedItem } from '../test-data';
import { variantMargin } from './VariantsTable';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

const variant = (v: Partial<SavedVariant> & Pick<SavedVariant, 'vid' | 'name' | 'price' | 'supplierCost'>): SavedVariant => ({
  _id: v.vid === 'VID-BLACK' ? 'b'.repeat(24) : 'c'.repeat(24), variantKey: v.name, image: `/api/cj/offline-images/v1/${v.name.toLowerCase()}.webp`,
  finalPrice: v.price, countInStock: 5, enabled: true, margin: null, marginPercent: null, ...v,
});

describe('Variants table (supplier product editor)', () => {
  it('edits each variant: price, stock, on/off, with margin and margin %; saves them through variants:[...]', async () => {
    const saved = makeSavedItem({
      productVariants: [
        variant({ vid: 'VID-BLACK', name: 'Black', price: 8, supplierCost: 4.5, countInStock: 5 }),
        variant({ vid: 'VID-RED', name: 'Red', price: 19.99, supplierCost: 6, countInStock: 100 }),
      ],
    });
    const api = mockApi({
      [`GET cj/products/saved/${saved._id}`]: () => ({ body: saved }),
      'POST cj/products/save': () => ({ body: { message: 'Product saved successfully!', product: saved, created: false } }),
    });
    renderPage(<CjProductEditPage />, { route: `/admin/cj-product-edit/${saved._id}`, path: '/admin/cj-product-edit/:pid', state: stateWith(admin) });
    const table = await screen.findByRole('table', { name: 'Variants' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Variant', 'Cost', 'Price', 'Stock', 'Sell this variant', 'Margin', 'Margin %']);
    const black = within(table).getByTestId('variant-row-VID-BLACK');
    expect(black).toHaveTextContent('$4.50');
    expect(black).toHaveTextContent('$3.50');
    expect(black).toHaveTextContent('43.8%');
    // The listing's variant (Red) follows the form: read-only here, always on sale.
    const red = within(table).getByTestId('variant-row-VID-RED');
    expect(red).toHaveTextContent('Listing');
    expect(within(red).getByRole('switch', { name: 'Sell Red' })).toBeDisabled();
    expect(red).toHaveTextContent('$13.99');

    const price = screen.getByLabelText('Price of Black');
    await userEvent.clear(price);
    await userEvent.type(price, '4');
    expect(black).toHaveTextContent('-$0.50');
    const stock = screen.getByLabelText('Stock of Black');
    await userEvent.clear(stock);
    await userEvent.type(stock, '1.5');
    await userEvent.click(screen.getByRole('switch', { name: 'Sell Black' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save CJ Product' }));
    expect(await screen.findByText('Stock must be a whole number from 0 to 1000000')).toBeInTheDocument();
    expect(stock).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST cj/products/save')).toHaveLength(0);

    await userEvent.clear(stock);
    await userEvent.type(stock, '7');
    await userEvent.click(screen.getByRole('button', { name: 'Save CJ Product' }));
    expect(await screen.findByText('Product saved successfully!')).toBeInTheDocument();
    expect(api.callsTo('POST cj/products/save')[0]!.body).toMatchObject({
      vid: 'VID-RED', price: 19.99, variants: [{ vid: 'VID-BLACK', price: 4, countInStock: 7, enabled: false }],
    });
  });

  it('works the margin out after the sale discount', () => {
    expect(variantMargin(20, 0, 5)).toEqual({ margin: 15, percent: 75 });
    expect(variantMargin(20, 50, 12)).toEqual({ margin: -2, percent: -20 });
    expect(variantMargin(20, 0, null)).toBeNull();
  });
});
