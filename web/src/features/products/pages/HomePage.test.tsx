import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, mockApi, renderPage } from '../../../test/catalogue-utils';
import HomePage from './HomePage';

afterEach(() => vi.unstubAllGlobals());

describe('HomePage', () => {
  it("has the spec's title, the product grid and a 'See all' link to /search", async () => {
    mockApi({ 'GET products': () => ({ body: [makeProduct({ name: 'Blue Mug', slug: 'blue-mug' })] }) });
    renderPage(<HomePage />, { route: '/', path: '/' });
    expect(screen.getByRole('heading', { level: 1, name: 'Smart Finds. Joyfully Delivered' })).toBeInTheDocument();
    expect(await screen.findByText('Blue Mug')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /See all products/ })).toHaveAttribute('href', '/search');
  });
});
