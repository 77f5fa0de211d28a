import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeProduct, renderPage } from '../test/catalogue-utils';
import { Price } from './Price';
import { ProductCard } from './ProductCard';

describe('ProductCard', () => {
  it('shows the image, name link, rating with review count and the regular price', () => {
    renderPage(<ProductCard product={makeProduct({ name: 'Blue Mug', slug: 'blue-mug', price: 20, finalPrice: 20, rating: 4.5, numReviews: 12 })} />);
    expect(screen.getByRole('link', { name: 'Blue Mug' })).toHaveAttribute('href', '/product/blue-mug');
    expect(screen.getByAltText('Blue Mug')).toHaveAttribute('src', '/uploads/blue-mug.webp');
    // The stars are one element: filled up to 4.5 of 5 (90 %).
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5' }).style.getPropertyValue('--shop-stars-filled')).toBe('90%');
    expect(screen.getByText('12 reviews')).toBeInTheDocument();
    // One link for the whole card (stretched over image and price), so one stop for the keyboard.
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.getByText('$20.00')).toBeInTheDocument();
    expect(screen.queryByRole('deletion')).not.toBeInTheDocument();
    expect(screen.queryByText('On Sale')).not.toBeInTheDocument();
  });

  it("variants that differ in price: 'From' the lowest price paid (issue 34)", () => {
    renderPage(<ProductCard product={makeProduct({ name: 'Classic Tee', price: 20, finalPrice: 18, isOnSale: true, saleDiscount: 10, priceRange: { min: 18, max: 19.8 } })} />);
    expect(screen.getByText('From $18.00')).toBeInTheDocument();
    expect(screen.queryByText('$20.00')).not.toBeInTheDocument();
  });

  it('rounds the stars to half steps and keeps them within 0 to 5', () => {
    const filledOf = (rating: number) => {
      const { unmount } = renderPage(<ProductCard product={makeProduct({ rating })} />);
      const img = screen.getByRole('img', { name: /^Rated / });
      const result = [img.getAttribute('aria-label'), img.style.getPropertyValue('--shop-stars-filled')];
      unmount();
      return result;
    };
    expect(filledOf(3.74)).toEqual(['Rated 3.5 out of 5', '70%']);
    expect(filledOf(3.76)).toEqual(['Rated 4 out of 5', '80%']);
    expect(filledOf(0)).toEqual(['Rated 0 out of 5', '0%']);
    expect(filledOf(7)).toEqual(['Rated 7 out of 5', '100%']);
  });

  it('on sale: the sale price first, the regular price struck through, and the On Sale badge', () => {
    const { container } = renderPage(<ProductCard product={makeProduct({ price: 80, finalPrice: 60, isOnSale: true, saleDiscount: 25 })} />);
    expect(screen.getByText('$60.00')).toBeInTheDocument();
    const del = container.querySelector('del');
    expect(del).toHaveTextContent('Regular price $80.00');
    expect(screen.getByText('On Sale')).toBeInTheDocument();
  });

  it('on sale with a 0 % discount shows just the price', () => {
    const { container } = renderPage(<ProductCard product={makeProduct({ price: 80, finalPrice: 80, isOnSale: true, saleDiscount: 0 })} />);
    expect(screen.getByText('$80.00')).toBeInTheDocument();
    expect(container.querySelector('del')).toBeNull();
    expect(screen.queryByText('On Sale')).not.toBeInTheDocument();
  });

  it('shows the Todays Deal, Gift and Out of Stock badges', () => {
    renderPage(<ProductCard product={makeProduct({ isTodaysDeal: true, isGift: true, countInStock: 0 })} />);
    expect(screen.getByText('Todays Deal')).toBeInTheDocument();
    expect(screen.getByText('Gift')).toBeInTheDocument();
    expect(screen.getByText('Out of Stock')).toBeInTheDocument();
  });

  it('loads lazily unless it is in the first row, with a reserved size', () => {
    const { unmount } = renderPage(<ProductCard product={makeProduct({ name: 'Lazy' })} />);
    const lazy = screen.getByAltText('Lazy');
    expect(lazy).toHaveAttribute('loading', 'lazy');
    expect(lazy).toHaveAttribute('width', '400');
    expect(lazy).toHaveAttribute('height', '400');
    unmount();
    renderPage(<ProductCard product={makeProduct({ name: 'Eager' })} isPriority />);
    const eager = screen.getByAltText('Eager');
    expect(eager).toHaveAttribute('loading', 'eager');
    expect(eager).toHaveAttribute('fetchpriority', 'high');
  });
});

describe('ProductCard image sizes', () => {
  it('offers the resized copies of an uploaded image through srcset and sizes', () => {
    renderPage(<ProductCard product={makeProduct({ name: 'Mug', image: '/uploads/blue-mug.webp' })} sizes="50vw" />);
    const img = screen.getByAltText('Mug');
    expect(img).toHaveAttribute('src', '/uploads/blue-mug.webp');
    expect(img).toHaveAttribute('srcset', '/uploads/w/200/blue-mug.webp 200w, /uploads/w/400/blue-mug.webp 400w, /uploads/w/800/blue-mug.webp 800w');
    expect(img).toHaveAttribute('sizes', '50vw');
  });

  it('leaves other image URLs alone', () => {
    renderPage(<ProductCard product={makeProduct({ name: 'Lamp', image: 'https://cdn.example.com/lamp.jpg' })} />);
    const img = screen.getByAltText('Lamp');
    expect(img).toHaveAttribute('src', 'https://cdn.example.com/lamp.jpg');
    expect(img).not.toHaveAttribute('srcset');
    expect(img).not.toHaveAttribute('sizes');
  });
});

describe('Price', () => {
  it("adds '(N% OFF)' on the product page when on sale", () => {
    renderPage(<Price price={100} finalPrice={85.5} isOnSale saleDiscount={14.5} showDiscount />);
    expect(screen.getByText('$85.50')).toBeInTheDocument();
    expect(screen.getByText('(14.5% OFF)')).toBeInTheDocument();
  });

  it("has no '(N% OFF)' when not on sale", () => {
    renderPage(<Price price={100} finalPrice={100} isOnSale={false} saleDiscount={30} showDiscount />);
    expect(screen.getByText('$100.00')).toBeInTheDocument();
    expect(screen.queryByText(/% OFF/)).not.toBeInTheDocument();
  });
});

describe('ProductCard links', () => {
  it('a saved supplier product links to its CJ page', () => {
    renderPage(<ProductCard product={makeProduct({ name: 'CJ Lamp', slug: 'cj-lamp', cjData: { pid: 'P1', variants: [{ vid: 'V1' }] } })} />);
    expect(screen.getByRole('link', { name: 'CJ Lamp' })).toHaveAttribute('href', '/cj-product/cj-lamp');
  });
});
