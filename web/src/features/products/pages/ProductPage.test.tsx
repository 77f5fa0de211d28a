import type { SellableVariant } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, makeReview, mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { customer } from '../../../test/render';
import ProductPage from './ProductPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));
const addToCart = vi.fn(async () => undefined);
vi.mock('../../cart/hooks/use-add-to-cart', () => ({ useAddToCart: () => ({ addToCart, isAdding: false }) }));

const older = makeReview({ name: 'Bob', rating: 3, comment: 'Fine mug.', createdAt: '2025-01-10T08:00:00.000Z' });
const mug = makeProduct({
  name: 'Blue Mug',
  slug: 'blue-mug',
  price: 40,
  finalPrice: 30,
  isOnSale: true,
  saleDiscount: 25,
  rating: 3,
  numReviews: 1,
  image: '/uploads/mug-1.webp',
  images: ['/uploads/mug-2.webp', '/uploads/mug-3.webp'],
  reviews: [older],
});

const renderProduct = (opts: { signedIn?: boolean; slug?: string } = {}) =>
  renderPage(<ProductPage />, { route: `/product/${opts.slug ?? 'blue-mug'}`, path: '/product/:slug', state: stateWith(opts.signedIn ? customer : null) });

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('ProductPage', () => {
  it("shows name, rating with count, sale price with '(N% OFF)', description, stock badge and Add to Cart", async () => {
    mockApi({ 'GET products/slug/blue-mug': () => ({ body: mug }) });
    renderProduct();
    expect(await screen.findByRole('heading', { level: 1, name: 'Blue Mug' })).toBeInTheDocument();
    expect(screen.getByText('1 review')).toBeInTheDocument();
    expect(screen.getByText('(25% OFF)')).toBeInTheDocument();
    expect(screen.getByText('A sturdy blue mug.')).toBeInTheDocument();
    expect(screen.getByText('In Stock')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    expect(addToCart).toHaveBeenCalledWith(mug, null);
    expect(document.title).toBe('Blue Mug');
  });

  it('a product with options: one choice per option; price, image, stock and Add to Cart follow the variant chosen (issue 34)', async () => {
    const v = (id: string, size: string, colour: string, price: number, stock: number): SellableVariant => ({
      _id: id.repeat(24), vid: id.repeat(24), name: `${size} / ${colour}`, variantKey: '', image: colour === 'Red' ? '/uploads/tee-red.webp' : '',
      price, finalPrice: price, countInStock: stock, enabled: true, options: { Size: size, Colour: colour }, sku: '',
    });
    // L comes in Blue only; M / Blue is sold out.
    const productVariants = [v('a', 'S', 'Red', 20, 5), v('b', 'S', 'Blue', 20, 5), v('c', 'M', 'Red', 22, 3), v('d', 'M', 'Blue', 22, 0), v('e', 'L', 'Blue', 24, 2)];
    const tee = makeProduct({
      name: 'Classic Tee', slug: 'classic-tee', price: 20, finalPrice: 20, countInStock: 15, image: '/uploads/tee.webp',
      options: [{ name: 'Size', values: ['S', 'M', 'L'] }, { name: 'Colour', values: ['Red', 'Blue'] }], priceRange: { min: 20, max: 24 }, productVariants,
    });
    mockApi({ 'GET products/slug/classic-tee': () => ({ body: tee }) });
    const user = userEvent.setup();
    renderProduct({ slug: 'classic-tee' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Classic Tee' })).toBeInTheDocument();
    const panel = screen.getByRole('region', { name: 'Price and availability' });
    expect(screen.getAllByText('From $20.00')).toHaveLength(2);
    expect(within(panel).getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
    expect(screen.getByText('Choose Size and Colour.')).toBeInTheDocument();

    const sizes = screen.getByRole('radiogroup', { name: 'Choose Size' });
    const colours = screen.getByRole('radiogroup', { name: 'Choose Colour' });
    await user.click(within(sizes).getByRole('radio', { name: 'L' }));
    // L comes in Blue only.
    expect(within(colours).getByRole('radio', { name: 'Red' })).toBeDisabled();
    await user.click(within(sizes).getByRole('radio', { name: 'M' }));
    expect(within(colours).getByRole('radio', { name: 'Blue, out of stock' })).toBeEnabled();
    await user.click(within(colours).getByRole('radio', { name: 'Red' }));
    expect(screen.getByText('Chosen: M / Red, $22.00 (3 in stock)')).toBeInTheDocument();
    expect(within(panel).getByText('$22.00')).toBeInTheDocument();
    expect(screen.getByTestId('gallery-main')).toHaveAttribute('src', '/uploads/tee-red.webp');
    await user.click(within(panel).getByRole('button', { name: 'Add to Cart' }));
    expect(addToCart).toHaveBeenCalledWith(tee, productVariants[2]);

    // The sold-out combination: 'Unavailable', no Add to Cart.
    await user.click(within(colours).getByRole('radio', { name: 'Blue, out of stock' }));
    expect(within(panel).getByText('Unavailable')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Add to Cart' })).not.toBeInTheDocument();
  });

  it("out of stock: 'Unavailable' and no Add to Cart", async () => {
    mockApi({ 'GET products/slug/blue-mug': () => ({ body: { ...mug, countInStock: 0 } }) });
    renderProduct();
    expect(await screen.findByText('Unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to Cart' })).not.toBeInTheDocument();
  });

  it('the gallery shows the main image and a thumbnail click selects another', async () => {
    mockApi({ 'GET products/slug/blue-mug': () => ({ body: mug }) });
    renderProduct();
    const main = await screen.findByTestId('gallery-main');
    expect(main).toHaveAttribute('src', '/uploads/mug-1.webp');
    const thumbs = within(screen.getByRole('list', { name: 'Product images' })).getAllByRole('button');
    expect(thumbs).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: 'Show image 3 of 3' }));
    expect(main).toHaveAttribute('src', '/uploads/mug-3.webp');
    expect(screen.getByRole('button', { name: 'Show image 3 of 3' })).toHaveAttribute('aria-pressed', 'true');
  });

  it("shows 'Product Not Found' for a missing product", async () => {
    mockApi({ 'GET products/slug/nope': () => ({ status: 404, body: { message: 'Product not found' } }) });
    renderProduct({ slug: 'nope' });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Product Not Found$/);
  });

  it("signed out: reviews are listed and a 'Sign In' link returns to the product", async () => {
    mockApi({ 'GET products/slug/blue-mug': () => ({ body: mug }) });
    renderProduct();
    const reviews = await screen.findByRole('list', { name: 'Reviews' });
    expect(within(reviews).getByText('Bob')).toBeInTheDocument();
    expect(within(reviews).getByText('2025-01-10')).toBeInTheDocument();
    expect(within(reviews).getByText('Fine mug.')).toBeInTheDocument();
    expect(within(reviews).getByRole('img', { name: 'Rated 3 out of 5' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', `/signin?redirect=${encodeURIComponent('/product/blue-mug')}`);
    expect(screen.queryByLabelText('Rating')).not.toBeInTheDocument();
  });

  it("says 'There is no review' when there are none", async () => {
    mockApi({ 'GET products/slug/blue-mug': () => ({ body: { ...mug, reviews: [], numReviews: 0 } }) });
    renderProduct();
    expect(await screen.findByText('There is no review')).toBeInTheDocument();
  });

  it("the review form offers the spec's ratings and requires rating and comment", async () => {
    const api = mockApi({ 'GET products/slug/blue-mug': () => ({ body: mug }) });
    renderProduct({ signedIn: true });
    const rating = await screen.findByLabelText('Rating');
    expect([...(rating as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Select...',
      '1 Poor',
      '2 Fair',
      '3 Good',
      '4 Very good',
      '5 Excellent',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter comment and rating');
    await userEvent.selectOptions(rating, '4');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter comment and rating');
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('a submitted review is prepended, count and rating updated, the form cleared, a toast shown and the page scrolled', async () => {
    const created = makeReview({ name: 'Jane Customer', rating: 5, comment: 'Love it!', createdAt: '2025-03-01T09:00:00.000Z' });
    const api = mockApi({
      'GET products/slug/blue-mug': () => ({ body: mug }),
      [`POST products/${mug._id}/reviews`]: () => ({ status: 201, body: { message: 'Review submitted successfully', review: created, numReviews: 2, rating: 4 } }),
    });
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    renderProduct({ signedIn: true });
    await userEvent.selectOptions(await screen.findByLabelText('Rating'), '5');
    await userEvent.type(screen.getByLabelText('Comments'), '  Love it!  ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Review submitted successfully'));
    expect(api.callsTo(`POST products/${mug._id}/reviews`)[0]?.body).toEqual({ rating: 5, comment: 'Love it!' });
    const items = within(screen.getByRole('list', { name: 'Reviews' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Jane Customer');
    expect(items[0]).toHaveTextContent('Love it!');
    expect(items[1]).toHaveTextContent('Bob');
    expect(screen.getByText('2 reviews')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Rated 4 out of 5' })).toBeInTheDocument();
    // Reviewed: the form gives way to a note (one review per user).
    expect(screen.getByText('You reviewed this product')).toBeInTheDocument();
    expect(screen.queryByLabelText('Comments')).toBeNull();
    expect(scrollIntoView).toHaveBeenCalled();
  });

  it("hides the form for a product the user already reviewed: 'You reviewed this product'", async () => {
    mockApi({
      'GET products/slug/blue-mug': () => ({ body: mug }),
      [`GET products/${mug._id}/reviews/mine`]: () => ({ body: { review: older } }),
    });
    renderProduct({ signedIn: true });
    expect(await screen.findByText('You reviewed this product')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });

  it('shows the comment limit with a live counter and refuses an over-long comment instead of cutting it', async () => {
    const api = mockApi({
      'GET products/slug/blue-mug': () => ({ body: mug }),
      [`GET products/${mug._id}/reviews/mine`]: () => ({ body: { review: null } }),
    });
    renderProduct({ signedIn: true });
    const comments = await screen.findByLabelText('Comments');
    expect(screen.getByText('0 / 2000 characters')).toBeInTheDocument();
    expect(comments).not.toHaveAttribute('maxLength');
    await userEvent.type(comments, 'Nice');
    expect(screen.getByText('4 / 2000 characters')).toBeInTheDocument();
    await userEvent.clear(comments);
    await userEvent.click(comments);
    await userEvent.paste('x'.repeat(2005));
    expect(comments).toHaveValue('x'.repeat(2005));
    expect(screen.getByText('2005 / 2000 characters — 5 too many')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText('Rating'), '4');
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's refusal (one review per user)", async () => {
    mockApi({
      'GET products/slug/blue-mug': () => ({ body: mug }),
      [`POST products/${mug._id}/reviews`]: () => ({ status: 400, body: { message: 'You have already submitted a review for this product' } }),
    });
    renderProduct({ signedIn: true });
    await userEvent.selectOptions(await screen.findByLabelText('Rating'), '2');
    await userEvent.type(screen.getByLabelText('Comments'), 'Again');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You have already submitted a review for this product');
    expect(toast.success).not.toHaveBeenCalled();
  });
});
