import { describe, expect, it } from 'vitest';
import { ADMIN_NAV, isInArea } from './admin-nav';

const areaOf = (pathname: string) => ADMIN_NAV.filter((e) => isInArea(e, pathname)).map((e) => e.label);

describe('the back office areas (admin-nav)', () => {
  it('lists the areas in order, each with its list page', () => {
    expect(ADMIN_NAV.map((e) => [e.label, e.to])).toEqual([
      ['Dashboard', '/admin/dashboard'],
      ['Orders', '/admin/orders'],
      ['Products', '/admin/products'],
      ['Supplier catalogue', '/admin/cj-products'],
      ['Discounts', '/admin/discounts'],
      ['Users', '/admin/users'],
      ['Leads', '/admin/leads'],
      ['Chats', '/admin/chats'],
      ['Pages', '/admin/pages'],
      ['Shipping', '/admin/shipping'],
    ]);
  });

  it.each([
    ['/admin/dashboard', 'Dashboard'],
    ['/admin/orders', 'Orders'],
    ['/admin/order/0123456789abcdef01234567', 'Orders'],
    ['/admin/products', 'Products'],
    ['/admin/product', 'Products'],
    ['/admin/product/0123456789abcdef01234567', 'Products'],
    ['/admin/cj-products', 'Supplier catalogue'],
    ['/admin/cj-product-edit/ABC-123', 'Supplier catalogue'],
    ['/admin/discounts', 'Discounts'],
    ['/admin/discount/0123456789abcdef01234567', 'Discounts'],
    ['/admin/users', 'Users'],
    ['/admin/user/0123456789abcdef01234567', 'Users'],
    ['/admin/user', 'Users'],
    ['/admin/leads', 'Leads'],
    ['/admin/chats', 'Chats'],
    ['/admin/chat/0123456789abcdef01234567', 'Chats'],
    ['/admin/pages', 'Pages'],
    ['/admin/page/faq', 'Pages'],
    ['/admin/shipping', 'Shipping'],
    ['/ADMIN/Products/', 'Products'],
  ])('%s is in %s (and no other area)', (pathname, area) => {
    expect(areaOf(pathname)).toEqual([area]);
  });

  it('a path of no area marks none (a prefix of a word is not the area)', () => {
    expect(areaOf('/admin/nothing-here')).toEqual([]);
    expect(areaOf('/admin/ordersx')).toEqual([]);
    expect(areaOf('/admin/userspace')).toEqual([]);
  });
});
