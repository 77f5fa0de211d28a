import type { CjPublicProduct } from '@shop/contracts';
import { screen, within } from '@testing-library/react';
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
      { vid: 'V1', variantNameEn: 'Insulated Travel Mug Black', variantSku: 'S-B', variantKey: 'Black', variantImage: '/img/b.webp' },
      { vid: 'V2', variantNameEn: 'Insulated Travel Mug Red', variantSku: 'S-R', variantKey: 'Red', variantImage: '/img/r.webp' },
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
  it('shows the product like the product page, with its variants and Add to Cart', async () => {
    mockApi({ 'GET cj/products/saved/slug/insulated-travel-mug': () => ({ body: makePublic() }) });
    renderProduct();
    expect(await screen.findByRole('heading', { level: 1, name: 'Insulated Travel Mug' })).toBeInTheDocument();
    const variants = screen.getByRole('region', { name: 'Variants:' });
    expect(within(variants).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Black', 'Red']);
    expect(within(variants).getAllByRole('listitem')[1]).toHaveAttribute('aria-current', 'true');
    expect(screen.getByText('This listing sells: Red')).toBeInTheDocument();
    const panel = screen.getByRole('region', { name: 'Price and availability' });
    expect(within(panel).getByText('In Stock')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Add to Cart' })).toBeInTheDocument();
    expect(screen.getByText('There is no review')).toBeInTheDocument();
  });

  it('cannot be bought once the supplier stopped selling it', async () => {
    mockApi({ 'GET cj/products/saved/slug/insulated-travel-mug': () => ({ body: makePublic({ isDiscontinued: true, countInStock: 0 }) }) });
    renderProduct();
    const panel = await screen.findByRole('region', { name: 'Price and availability' });
    expect(within(panel).getByText('Unavailable')).toBeInTheDocument();
    expect(within(panel).getByText('No longer available from our supplier.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Add to Cart' })).not.toBeInTheDocument();
  });

  it("says 'Product Not Found' for an unknown slug", async () => {
    mockApi({});
    renderProduct();
    expect(await screen.findByRole('alert')).toHaveTextContent('Product Not Found');
  });
});
