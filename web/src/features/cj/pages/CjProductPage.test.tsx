import type { CjPublicProduct } from '@shop/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, mockApi, renderPage } from '../../../test/catalogue-utils';
import CjProductPage from './CjProductPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

function makePublic(overrides: Partial<CjPublicProduct> = {}): CjPublicProduct {
  return {
    ...makeProduct({ name: 'Insulated Travel Mug', slug: 'insulated-travel-mug', price: 19.99, finalPrice: 19.99, cjData: { pid: 'P1', variants: [{ vid: 'V1' }, { vid: 'V2' }] } }),
    isSaved: true,
    vid: 'V2',
    variants: [
      { vid: 'V1', variantNameEn: 'Insulated Travel Mug Black', variantSku: 'S-B', variantKey: 'Black', variantImage: '/api/cj/offline-images/v1/b.webp' },
      { vid: 'V2', variantNameEn: 'Insulated Travel Mug Red', variantSku: 'S-R', variantKey: 'Red', variantImage: '/api/cj/offline-images/v1/r.webp' },
    ],
    isDiscontinued: false,
    ...overrides,
  };
}

const renderProduct = () => renderPage(<CjProductPage />, { route: '/cj-product/insulated-travel-mug', path: '/cj-product/:slug' });

beforeEach(() => {
  vi.unstubAllGlobals();
});

describe('CjProductPage (public)', () => {
  it('shows the product like the product page; a variant must be chosen, and price, stock and image follow it', async () => {
    const variant = (id: string, key: string, price: number, stock: number) => ({
      _id: id, vid: `V-${key}`, name: `Insulated Travel Mug ${key}`, variantKey: key, image: `/api/cj/offline-images/v1/${key}.webp`,
      price, finalPrice: price, countInStock: stock, enabled: true,
    });
    const productVariants = [variant('a'.repeat(24), 'Black', 19.99, 4), variant('b'.repeat(24), 'Red', 24.99, 9)];
    mockApi({ 'GET cj/products/saved/slug/insulated-travel-mug': () => ({ body: makePublic({ productVariants }) }) });
    const user = userEvent.setup();
    renderProduct();
    expect(await screen.findByRole('heading', { level: 1, name: 'Insulated Travel Mug' })).toBeInTheDocument();
    const group = screen.getByRole('radiogroup', { name: 'Choose a variant' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('aria-label'))).toEqual(['Black, $19.99', 'Red, $24.99']);
    const panel = screen.getByRole('region', { name: 'Price and availability' });
    expect(within(panel).getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
    await user.click(radios[1]!);
    expect(radios[1]).toBeChecked();
    expect(within(panel).getByRole('button', { name: 'Add to Cart' })).toBeEnabled();
    expect(within(panel).getByText('$24.99')).toBeInTheDocument();
    expect(screen.getByText('Chosen: Red (9 in stock)')).toBeInTheDocument();
    expect(screen.getByText('There is no review')).toBeInTheDocument();
  });

  it('cannot be bought once the supplier stopped selling it', async () => {
    mockApi({ 'GET cj/products/saved/slug/insulated-travel-mug': () => ({ body: makePublic({ isDiscontinued: true, countInStock: 0 }) }) });
    renderProduct();
    const panel = await screen.findByRole('region', { name: 'Price and availability' });
    expect(within(panel).getByText('Unavailable')).toBeInTheDocument();
    expect(within(panel).getByText('No longer available.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Add to Cart' })).not.toBeInTheDocument();
  });

  it("says 'Product Not Found' for an unknown slug", async () => {
    mockApi({});
    renderProduct();
    expect(await screen.findByRole('alert')).toHaveTextContent('Product Not Found');
  });
});
