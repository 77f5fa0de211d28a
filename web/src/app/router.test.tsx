import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes, routesFor } from './router';

/** The leaf route's pattern and parameters, and the chain's length, as React Router matches them. */
const outcome = (table: typeof routes, pathname: string) => {
  const matches = matchRoutes(table, pathname);
  return matches ? { depth: matches.length, path: matches.at(-1)?.route.path, params: matches.at(-1)?.params } : null;
};

describe('routesFor (the route table pruned by first segment)', () => {
  const paths = [
    '/', '', '/product/blue-mug', '/PRODUCT/blue-mug', '/pr%6Fduct/blue-mug', '/product', '/product/', '/product/a/b',
    '/product%2Fblue-mug', '//product/x', '//', '/cart', '/Cart/', '/search', '/search/x', '/cj-product/x', '/cj-products',
    '/pages/about-us', '/order/abc', '/orderhistory', '/admin', '/admin/products/3/edit', '/ADMIN/users', '/nope',
    '/%E0%A4%A/x', '/%zz', '/product/%zz', '/signin', '/dev/mailbox', '/newsletter/unsubscribe', '/privacy/', '/profile/x',
  ];

  it.each(paths)('matches %j exactly as the whole table does', (pathname) => {
    expect(outcome(routesFor(pathname), pathname)).toEqual(outcome(routes, pathname));
  });

  it('keeps only the pages that can match (the layout, the pages of that segment and the catch-all)', () => {
    const children = routesFor('/product/x')[0]?.children?.map((r) => r.path);
    expect(children).toEqual(['/product/:slug', '*']);
    expect(routesFor('/nope')[0]?.children?.map((r) => r.path)).toEqual(['*']);
  });
});
