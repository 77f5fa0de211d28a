/** Every route of the app (SPEC.md section 2), so links are built, not typed by hand. */
export const paths = {
  home: '/',
  product: (slug: string) => `/product/${encodeURIComponent(slug)}`,
  cjProduct: (slug: string) => `/cj-product/${encodeURIComponent(slug)}`,
  cart: '/cart',
  search: '/search',
  signin: '/signin',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  privacy: '/privacy',
  confirmSignup: '/confirm-signup',
  confirmEmail: '/confirm-email',
  cjProductsPublic: '/cj-products',
  shipping: '/shipping',
  payment: '/payment',
  placeOrder: '/placeorder',
  order: (id: string) => `/order/${id}`,
  orderHistory: '/orderhistory',
  profile: '/profile',
  newsletterUnsubscribe: '/newsletter/unsubscribe',
  page: (slug: string) => `/pages/${encodeURIComponent(slug)}`,
  admin: {
    dashboard: '/admin/dashboard',
    products: '/admin/products',
    productsPage: (page: number) => `/admin/products?page=${page}`,
    product: (id: string) => `/admin/product/${id}`,
    newProduct: '/admin/product',
    orders: '/admin/orders',
    order: (id: string) => `/admin/order/${id}`,
    users: '/admin/users',
    user: (id: string) => `/admin/user/${id}`,
    newUser: '/admin/user',
    leads: '/admin/leads',
    chats: '/admin/chats',
    chat: (id: string) => `/admin/chat/${id}`,
    cjProducts: '/admin/cj-products',
    cjProductEdit: (pid: string) => `/admin/cj-product-edit/${encodeURIComponent(pid)}`,
    pages: '/admin/pages',
    page: (slug: string) => `/admin/page/${encodeURIComponent(slug)}`,
    discounts: '/admin/discounts',
    discount: (id: string) => `/admin/discount/${id}`,
    newDiscount: '/admin/discount',
    shipping: '/admin/shipping',
  },
} as const;

/** Whether a path is the back office's (/admin and below, any case as the router matches): it has its own frame. */
export const isBackOfficePath = (pathname: string) => /^\/admin(?:\/|$)/i.test(pathname);

/** Builds /search?... from the given filters, dropping defaults. */
export function searchUrl(filters: Partial<Record<'query' | 'category' | 'price' | 'rating' | 'order' | 'page' | 'tag', string | number>>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) {
    if (v === undefined || v === '' || v === 'all') continue;
    if (k === 'order' && v === 'newest') continue;
    if (k === 'page' && Number(v) === 1) continue;
    params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `/search?${qs}` : '/search';
}
