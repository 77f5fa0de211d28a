import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderWithProviders } from '../../test/render';
import { Footer } from './Footer';

afterEach(() => vi.unstubAllGlobals());

const shopLinks = () =>
  Array.from(screen.getByRole('navigation', { name: 'Shop' }).querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')]);

describe('Footer', () => {
  it('lists All Products, the first 3 categories and View All Categories when there are more than 4', async () => {
    mockApi({ 'GET products/categories': () => ({ body: ['Books', 'Electronics', 'Home', 'Kitchen', 'Toys'] }) });
    renderWithProviders(<Footer />);
    expect(await screen.findByRole('link', { name: 'Books' })).toBeInTheDocument();
    expect(shopLinks()).toEqual([
      ['All Products', '/search'],
      ['Books', '/search?category=Books'],
      ['Electronics', '/search?category=Electronics'],
      ['Home', '/search?category=Home'],
      ['View All Categories', '/search'],
    ]);
  });

  it('shows no View All Categories with 4 categories, and only All Products when categories fail to load', async () => {
    mockApi({ 'GET products/categories': () => ({ body: ['A', 'B', 'C', 'D'] }) });
    const first = renderWithProviders(<Footer />);
    expect(await screen.findByRole('link', { name: 'C' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View All Categories' })).toBeNull();
    first.unmount();

    mockApi({ 'GET products/categories': () => ({ status: 404, body: { message: 'Not Found' } }) });
    renderWithProviders(<Footer />);
    expect(shopLinks()).toEqual([['All Products', '/search']]);
  });

  it('links Privacy Policy to /privacy and the information pages to /pages/:slug; no links to pages that do not exist', () => {
    mockApi({});
    renderWithProviders(<Footer />);
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    const links = (name: string) =>
      Array.from(screen.getByRole('navigation', { name }).querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links('Customer Service')).toEqual([
      ['Contact Us', '/pages/contact'],
      ['FAQ', '/pages/faq'],
      ['Shipping Policy', '/pages/shipping'],
      ['Returns & Refunds', '/pages/returns'],
      ['Track Your Order', '/orderhistory'],
    ]);
    expect(links('About')).toEqual([
      ['About Us', '/pages/about'],
      ['Terms of Service', '/pages/terms'],
      ['Privacy Policy', '/privacy'],
    ]);
    expect(screen.queryByRole('link', { name: 'Careers' })).toBeNull();
  });

  it('newsletter: checks the address, stores the subscription on the server and says so once', async () => {
    const { callsTo } = mockApi({ 'POST newsletter/subscribe': () => ({ status: 202, body: { message: 'Thanks for subscribing! We sent a confirmation to your e-mail.' } }) });
    renderWithProviders(<Footer />);
    const user = userEvent.setup();
    const input = screen.getByLabelText('Newsletter e-mail address');
    await user.type(input, 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(callsTo('POST newsletter/subscribe')).toHaveLength(0);
    await user.clear(input);
    await user.type(input, ' fan@example.com ');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Thanks for subscribing! We sent a confirmation to your e-mail.')).toBeInTheDocument();
    expect(screen.getAllByText(/Thanks for subscribing/)).toHaveLength(1);
    expect(input).toHaveValue('');
    expect(callsTo('POST newsletter/subscribe')[0]?.body).toEqual({ email: 'fan@example.com' });
  });

  it("newsletter: shows the server's refusal next to the field", async () => {
    mockApi({ 'POST newsletter/subscribe': () => ({ status: 429, body: { message: 'Too many attempts. Please try again later.' } }) });
    renderWithProviders(<Footer />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Newsletter e-mail address'), 'fan@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Too many attempts. Please try again later.')).toBeInTheDocument();
    expect(screen.getByLabelText('Newsletter e-mail address')).toHaveValue('fan@example.com');
  });

  it('shows only the payment methods the shop accepts: PayPal, no card marks', () => {
    mockApi({});
    renderWithProviders(<Footer />);
    const methods = screen.getByRole('list', { name: 'Payment methods we accept' });
    expect(Array.from(methods.querySelectorAll('li'), (li) => li.textContent)).toEqual(['PayPal']);
    for (const card of ['Visa', 'Mastercard', 'Amex', 'Stripe']) expect(screen.queryByText(card)).toBeNull();
  });
});
