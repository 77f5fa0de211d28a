import { describe, expect, it } from 'vitest';
import { pageUrl } from './page-url.ts';

describe('pageUrl (the URL a storefront page is rendered and cached for)', () => {
  it('drops the parameters a page does not read', () => {
    expect(pageUrl('/?utm_source=mail&utm_medium=email&fbclid=abc')).toBe('/');
    expect(pageUrl('/?x=123456')).toBe('/');
    expect(pageUrl('/product/blue-lamp?gclid=1')).toBe('/product/blue-lamp');
    expect(pageUrl('/cj-product/a-b?ref=x')).toBe('/cj-product/a-b');
    expect(pageUrl('/pages/faq?utm_campaign=x')).toBe('/pages/faq');
    expect(pageUrl('/privacy?')).toBe('/privacy');
  });

  it('keeps the search page\'s parameters in one order, first value only', () => {
    expect(pageUrl('/search?query=lamp&utm_source=x')).toBe('/search?query=lamp');
    expect(pageUrl('/search?page=2&query=red%20lamp&order=lowest')).toBe('/search?order=lowest&page=2&query=red+lamp');
    expect(pageUrl('/search?query=red+lamp&page=2&order=lowest')).toBe(pageUrl('/search?order=lowest&page=2&query=red%20lamp'));
    expect(pageUrl('/search?query=a&query=b')).toBe('/search?query=a');
    expect(pageUrl('/search?category=Shirts&price=1-50&rating=4&tag=todays-deal')).toBe('/search?category=Shirts&price=1-50&rating=4&tag=todays-deal');
  });

  it('keeps the token and redirect of the pages that read them', () => {
    expect(pageUrl('/reset-password?token=abc&utm_source=mail')).toBe('/reset-password?token=abc');
    expect(pageUrl('/signin?redirect=%2Fshipping&x=1')).toBe('/signin?redirect=%2Fshipping');
    expect(pageUrl('/cj-products?pid=123&z=1')).toBe('/cj-products?pid=123');
  });

  it('leaves other URLs as they came (back office, account, checkout, deeper paths, unknown pages)', () => {
    for (const url of ['/admin/orders?page=2&search=x', '/order/abc?x=1', '/profile?tab=a', '/product/a/b?x=1', '/nope?x=1', '/product/?x=1', '/search']) {
      expect(pageUrl(url)).toBe(url);
    }
  });
});
