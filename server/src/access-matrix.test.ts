import Fastify from 'fastify';
import { LEAD_STATUSES } from '@shop/contracts';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Executor } from './db/client.ts';
import { discounts, jobs } from './db/schema.ts';
import { newId } from './lib/ids.ts';
import { authPlugin, listRegisteredRoutes, startSession, ACCESS_COOKIE, REFRESH_COOKIE, type RegisteredRoute } from './lib/auth.ts';
import { createTokenSigner } from './lib/tokens.ts';
import { latestMailTo, tokenFromLink } from './modules/users/users.test-helpers.ts';
import { addToCart, call, createAddressFor, createProduct, placeOrderFor, sampleAddress } from './test/commerce-factories.ts';
import { startPayPalMock, type PayPalMock } from './test/paypal-mock.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from './test/test-app.ts';

/*
 * The access matrix: every route of the server's route table (listRegisteredRoutes) is called as an
 * anonymous visitor, a customer (the owner of the data in the request), another customer and an
 * administrator, and must answer the status declared for it in MATRIX below. A route without a
 * declaration fails the suite, and so does a declaration that matches no route. The requests are
 * real: path parameters are the owner's real ids (orders, addresses, chat, ...), bodies are valid, so
 * the status measured is the access decision, not validation. Owner data answers 404 to the other
 * customer. HEAD routes share the declaration of their GET.
 */

const ROLES = ['anonymous', 'customer', 'other', 'admin'] as const;
type Role = (typeof ROLES)[number];
type Statuses = Record<Role, number>;
type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const UNAUTHORIZED = { message: 'Not authorized, please sign in', code: 'UNAUTHORIZED' };
const FORBIDDEN = { message: 'Admin access required', code: 'FORBIDDEN' };

interface Request {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Replaces the role's session cookie (a route that ends or rotates the session gets a fresh one). */
  cookie?: string;
  headers?: Record<string, string>;
  /** A raw payload (multipart upload) instead of a JSON body. */
  payload?: Buffer;
}

interface Declaration {
  expect: Statuses;
  /** Builds the request for one role, just before it is sent (it may create fresh rows to act on). */
  request?: (w: World, role: Role) => Request | Promise<Request>;
}

const all = (s: number): Statuses => ({ anonymous: s, customer: s, other: s, admin: s });
/** Any signed-in user, acting on their own data. */
const signedIn = (s: number): Statuses => ({ anonymous: 401, customer: s, other: s, admin: s });
/** The owner only: the other customer gets 404; `admin` says what an administrator gets. */
const owner = (s: number, admin: number): Statuses => ({ anonymous: 401, customer: s, other: 404, admin });
const adminOnly = (s: number): Statuses => ({ anonymous: 401, customer: 403, other: 403, admin: s });
const opsToken = 'ops-token-for-the-access-matrix';

/** Everything the requests refer to: the users, and the customer's (A's) real rows. */
interface World {
  t: TestApp;
  paypal: PayPalMock;
  users: Record<Exclude<Role, 'anonymous'>, TestUser>;
  productId: string;
  productSlug: string;
  order: { id: string };
  addressId: string;
  conversationId: string;
  /** A message of that conversation (the customer's first). */
  chatMessageId: string;
  leadId: string;
  uploadKey: string;
  offlineImage: string;
  supplier: { pid: string; spareP: string; savedId: string; savedSlug: string; paidOrderId: string };
  userOf: (role: Role) => TestUser | null;
  /** A new session of the role's user (for sign-out and refresh, which end or rotate it). */
  freshSession: (role: Role) => Promise<string | undefined>;
  freshProduct: () => Promise<string>;
  freshOrder: () => Promise<string>;
  freshUser: () => Promise<TestUser>;
}

const sessionCookie = (s: { accessToken: string; refreshToken: string }) => `${ACCESS_COOKIE}=${s.accessToken}; ${REFRESH_COOKIE}=${s.refreshToken}`;
const BOUNDARY = 'access-matrix-boundary';
let uniq = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(uniq += 1)}`;
/** A discount code to read, change or delete (written straight to the database). */
async function freshDiscount(w: World): Promise<string> {
  const id = newId();
  await w.t.database.db.insert(discounts).values({ id, code: unique('AMX').toUpperCase(), kind: 'percent', value: 10 });
  return id;
}

/** The mailed token (confirm-signup, reset-password, newsletter) after a request that sends one. */
async function mailedToken(t: TestApp, to: string, path: string): Promise<string> {
  const mail = await latestMailTo(t, to);
  if (!mail) throw new Error(`no mail to ${to}`);
  return tokenFromLink(mail.text, path);
}

/** Pays an order through the local PayPal server as its owner. */
async function payAsOwner(w: World, user: TestUser, orderId: string) {
  const created = await call<{ id: string }>(w.t, user, 'POST', `/api/orders/${orderId}/paypal/create`);
  if (created.status !== 200) throw new Error(`paypal create ${created.status}`);
  w.paypal.approve(created.body.id);
  const paid = await call(w.t, user, 'PUT', `/api/orders/${orderId}/pay`, { paypalOrderId: created.body.id });
  if (paid.status !== 200) throw new Error(`pay ${paid.status} ${JSON.stringify(paid.body)}`);
}

// ------------------------------------------------------------------------------------------------
// The declarations: 'METHOD /route pattern' -> the status each role gets, and the request to send.
// ------------------------------------------------------------------------------------------------
export const MATRIX: Record<string, Declaration> = {
  // operations (METRICS_ACCESS / API_DOCS_ACCESS = protected, as in production)
  'GET /metrics': { expect: adminOnly(200) },
  'GET /api/docs': { expect: adminOnly(200) },
  'GET /api/docs/json': { expect: adminOnly(200) },
  'GET /api/docs/yaml': { expect: adminOnly(200) },
  'GET /api/docs/static/*': { expect: adminOnly(200), request: () => ({ params: { '*': 'swagger-ui.css' } }) },
  // swagger-ui sends the page's address to /api/docs/
  'GET /api/docs/static/index.html': { expect: adminOnly(302) },
  'GET /api/docs/static/swagger-initializer.js': { expect: adminOnly(200) },
  'GET /api/docs/': { expect: adminOnly(200) },
  'GET /api/health': { expect: all(200) },
  'GET /api/live': { expect: all(200) },
  'GET /api/ready': { expect: all(200) },
  // the development mailbox (outside production, without SMTP_URL; not registered in production)
  'GET /api/dev/mailbox': { expect: all(200) },

  // accounts
  'POST /api/users/signup': { expect: all(202), request: () => ({ body: { name: 'New Person', email: `${unique('signup')}@example.com`, password: 'password123' } }) },
  'POST /api/users/confirm-signup': {
    expect: all(201),
    request: async (w) => {
      const email = `${unique('confirm')}@example.com`;
      await call(w.t, null, 'POST', '/api/users/signup', { name: 'Confirming', email, password: 'password123' });
      return { body: { token: await mailedToken(w.t, email, '/confirm-signup') } };
    },
  },
  'POST /api/users/signin': { expect: all(200), request: (w) => ({ body: { email: w.users.customer.email, password: w.users.customer.password } }) },
  'POST /api/users/signout': { expect: all(200), request: async (w, role) => ({ cookie: await w.freshSession(role) }) },
  // Public, but it needs the refresh cookie: without one (anonymous) it is 401.
  'POST /api/users/refresh-token': { expect: signedIn(200), request: async (w, role) => ({ cookie: await w.freshSession(role) }) },
  'GET /api/users/current': { expect: all(200) },
  'PUT /api/users/profile': { expect: signedIn(200), request: (w, role) => ({ body: { name: w.userOf(role)?.name ?? 'Nobody', email: w.userOf(role)?.email ?? 'nobody@example.com' } }) },
  // The link mailed to a new address by a change of e-mail: anyone holding it confirms it.
  'POST /api/users/confirm-email': {
    expect: all(200),
    request: async (w) => {
      const u = await w.freshUser();
      const email = `${unique('moved')}@example.com`;
      const asked = await call(w.t, u, 'PUT', '/api/users/profile', { name: u.name, email, currentPassword: u.password });
      if (asked.status !== 200) throw new Error(`e-mail change ${asked.status}`);
      return { body: { token: await mailedToken(w.t, email, '/confirm-email') } };
    },
  },
  'POST /api/users/forgot-password': { expect: all(200), request: (w) => ({ body: { email: w.users.customer.email } }) },
  'POST /api/users/reset-password': {
    expect: all(200),
    request: async (w) => {
      const u = await w.freshUser();
      await call(w.t, null, 'POST', '/api/users/forgot-password', { email: u.email });
      return { body: { token: await mailedToken(w.t, u.email, '/reset-password'), password: 'a-new-password-1' } };
    },
  },

  // catalogue
  'GET /api/products': { expect: all(200) },
  'GET /api/products/search': { expect: all(200), request: () => ({ query: { query: 'test' } }) },
  'GET /api/products/categories': { expect: all(200) },
  'GET /api/products/admin': { expect: adminOnly(200) },
  'GET /api/products/slug/:slug': { expect: all(200), request: (w) => ({ params: { slug: w.productSlug } }) },
  'GET /api/products/:id': { expect: all(200), request: (w) => ({ params: { id: w.productId } }) },
  'POST /api/products': { expect: adminOnly(201) },
  'PUT /api/products/:id': { expect: adminOnly(200), request: async (w) => {
      const id = await w.freshProduct();
      return { params: { id }, body: {
        _id: id, name: 'Renamed by the matrix', slug: unique('renamed'), price: 12.5, image: '/uploads/renamed.webp',
        category: 'Testing', brand: 'Acme', countInStock: 5, description: 'Edited by the access matrix',
      } };
    },
  },
  'DELETE /api/products/:id': { expect: adminOnly(200), request: async (w) => ({ params: { id: await w.freshProduct() } }) },
  // Reviews are each user's own: "mine" reads the caller's, a new review is the caller's.
  'GET /api/products/:productId/reviews/mine': { expect: signedIn(200), request: (w) => ({ params: { productId: w.productId } }) },
  'POST /api/products/:productId/reviews': { expect: signedIn(201), request: async (w) => ({ params: { productId: await w.freshProduct() }, body: { rating: 4, comment: 'Good' } }) },
  'GET /robots.txt': { expect: all(200) },
  'GET /sitemap.xml': { expect: all(200) },
  'GET /sitemaps/pages.xml': { expect: all(200) },
  'GET /sitemaps/products-:part.xml': { expect: all(200), request: () => ({ params: { part: '1' } }) },

  // uploads
  'POST /api/upload': {
    expect: adminOnly(201),
    request: async () => ({ payload: await pngMultipart(), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } }),
  },
  'GET /uploads/:key': { expect: all(200), request: (w) => ({ params: { key: w.uploadKey } }) },
  'GET /uploads/w/:width/:key': { expect: all(200), request: (w) => ({ params: { width: '200', key: w.uploadKey } }) },

  // cart: always the caller's own
  'GET /api/cart': { expect: signedIn(200) },
  'POST /api/cart/items': { expect: signedIn(200), request: (w) => ({ body: { productId: w.productId, quantity: 1 } }) },
  'PUT /api/cart/items/:productId': {
    expect: signedIn(200),
    request: async (w, role) => {
      const u = w.userOf(role);
      if (u) await addToCart(w.t, u, w.productId, 1);
      return { params: { productId: w.productId }, body: { quantity: 2 } };
    },
  },
  'DELETE /api/cart/items/:productId': { expect: signedIn(200), request: (w) => ({ params: { productId: w.productId } }) },
  // Without a product id: the spec's message (400) once signed in.
  'PUT /api/cart/items': { expect: signedIn(400), request: () => ({ body: { quantity: 1 } }) },
  'DELETE /api/cart/items': { expect: signedIn(400) },
  'DELETE /api/cart': { expect: signedIn(200) },
  'POST /api/cart/discount': { expect: signedIn(400), request: () => ({ body: { code: 'NO-SUCH-CODE' } }) },
  'DELETE /api/cart/discount': { expect: signedIn(200) },
  'POST /api/cart/merge': { expect: signedIn(200), request: (w) => ({ body: { items: [{ productId: w.productId, quantity: 1 }] } }) },

  // address book: the customer's address, 404 to anyone else (administrators too)
  'GET /api/addresses': { expect: signedIn(200) },
  'POST /api/addresses': { expect: signedIn(201), request: () => ({ body: sampleAddress(200 + (uniq += 1)) }) },
  'PUT /api/addresses/:id': { expect: owner(200, 404), request: (w) => ({ params: { id: w.addressId }, body: sampleAddress(3) }) },
  'DELETE /api/addresses/:id': {
    expect: owner(200, 404),
    request: async (w) => ({ params: { id: (await createAddressFor(w.t, w.users.customer, sampleAddress(100 + (uniq += 1))))._id } }),
  },
  'PUT /api/addresses/:id/default': { expect: owner(200, 404), request: (w) => ({ params: { id: w.addressId } }) },

  // orders: the customer's order; administrators read and manage every order
  'POST /api/orders': {
    expect: signedIn(201),
    request: async (w, role) => {
      const u = w.userOf(role);
      if (u) await addToCart(w.t, u, await w.freshProduct(), 1);
      return { body: { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' } };
    },
  },
  'GET /api/orders/mine': { expect: signedIn(200) },
  'GET /api/orders': { expect: adminOnly(200) },
  'GET /api/orders/summary': { expect: adminOnly(200) },
  'GET /api/orders/:id': { expect: owner(200, 200), request: (w) => ({ params: { id: w.order.id } }) },
  // "Order again" fills the caller's own cart: someone else's order is 404, for administrators too.
  'POST /api/orders/:id/reorder': { expect: owner(200, 404), request: (w) => ({ params: { id: w.order.id } }) },
  'DELETE /api/orders/:id': { expect: adminOnly(200), request: async (w) => ({ params: { id: await w.freshOrder() } }) },
  'PUT /api/orders/:id/deliver': {
    expect: adminOnly(200),
    request: async (w) => {
      const id = await w.freshOrder();
      await payAsOwner(w, w.users.customer, id);
      return { params: { id } };
    },
  },
  'PUT /api/orders/:id/undeliver': { expect: adminOnly(200), request: (w) => ({ params: { id: w.order.id } }) },
  // An internal note on the order's timeline: administrators only.
  'POST /api/orders/:id/notes': { expect: adminOnly(201), request: (w) => ({ params: { id: w.order.id }, body: { text: 'Called the customer' } }) },
  // Refunds: administrators only, on a paid order (through the local PayPal server).
  'POST /api/orders/:id/refunds': {
    expect: adminOnly(201),
    request: async (w) => {
      const id = await w.freshOrder();
      await payAsOwner(w, w.users.customer, id);
      return { params: { id }, body: { amount: 1, reason: 'Goodwill' } };
    },
  },
  // Cancel: the owner cancels their own unpaid order; an administrator any order; the other customer 404.
  'POST /api/orders/:id/cancel': { expect: owner(200, 200), request: async (w) => ({ params: { id: await w.freshOrder() }, body: { reason: 'Changed my mind' } }) },

  // payments (PayPal, against the local PayPal server): only the owner pays; an administrator learns
  // that the order exists (they may read it) but may not pay it with PayPal (403).
  'GET /api/keys/paypal': { expect: all(200) },
  'POST /api/orders/:id/paypal/create': { expect: owner(200, 404), request: async (w) => ({ params: { id: await w.freshOrder() } }) },
  'PUT /api/orders/:id/pay': {
    expect: owner(200, 403),
    request: async (w) => {
      const id = await w.freshOrder();
      const created = await call<{ id: string }>(w.t, w.users.customer, 'POST', `/api/orders/${id}/paypal/create`);
      w.paypal.approve(created.body.id);
      return { params: { id }, body: { paypalOrderId: created.body.id } };
    },
  },

  // supplier catalogue (back office), and the public page of a saved supplier product
  'GET /api/cj/status': { expect: adminOnly(200) },
  'GET /api/cj/categories': { expect: adminOnly(200) },
  'GET /api/cj/products': { expect: adminOnly(200) },
  'GET /api/cj/products/saved': { expect: adminOnly(200) },
  'GET /api/cj/products/saved/slug/:slug': { expect: all(200), request: (w) => ({ params: { slug: w.supplier.savedSlug } }) },
  'GET /api/cj/products/saved/:id': { expect: adminOnly(200), request: (w) => ({ params: { id: w.supplier.savedId } }) },
  'POST /api/cj/products/saved/:id/refresh': { expect: adminOnly(200), request: (w) => ({ params: { id: w.supplier.savedId } }) },
  'GET /api/cj/products/:id': { expect: adminOnly(200), request: (w) => ({ params: { id: w.supplier.pid } }) },
  'POST /api/cj/products/save': { expect: adminOnly(200), request: (w) => ({ body: { pid: w.supplier.pid } }) },
  'DELETE /api/cj/products/:id': {
    expect: adminOnly(200),
    request: async (w) => {
      await call(w.t, w.users.admin, 'POST', '/api/cj/products/save', { pid: w.supplier.spareP });
      return { params: { id: w.supplier.spareP } };
    },
  },
  'GET /api/cj/orders': { expect: adminOnly(200) },
  'GET /api/cj/orders/:orderId': { expect: adminOnly(200), request: (w) => ({ params: { orderId: w.supplier.paidOrderId } }) },
  'POST /api/cj/orders/:orderId/retry': {
    expect: adminOnly(200),
    request: async (w) => {
      // A supplier order CJ refused (the state the Retry button is for).
      await w.t.database.db.update(jobs).set({ status: 'failed', lastError: 'refused' }).where(and(eq(jobs.kind, 'supplier.order'), eq(jobs.dedupeKey, w.supplier.paidOrderId)));
      return { params: { orderId: w.supplier.paidOrderId } };
    },
  },
  'GET /api/cj/pricing': { expect: adminOnly(200) },
  'PUT /api/cj/pricing': { expect: adminOnly(200), request: () => ({ body: { markupPercent: 50, fixedAmount: 0, rounding: '.99' } }) },
  'POST /api/cj/orders/:orderId/tracking/refresh': {
    expect: adminOnly(200),
    request: async (w) => {
      // A supplier order already forwarded (the state "Refresh now" is for).
      const orderId = w.supplier.paidOrderId;
      await w.t.database.db.update(jobs).set({ status: 'done', result: { cjOrderId: `OFFLINE-${Date.now()}-${orderId}` } })
        .where(and(eq(jobs.kind, 'supplier.order'), eq(jobs.dedupeKey, orderId)));
      return { params: { orderId } };
    },
  },
  'POST /api/orders/shipping-quote': { expect: signedIn(200), request: () => ({ body: { country: 'US' } }) },
  'GET /api/cj/offline-images/v1/:file': { expect: all(200), request: (w) => ({ params: { file: w.offlineImage } }) },

  // users (back office)
  'GET /api/users': { expect: adminOnly(200) },
  'POST /api/users': { expect: adminOnly(201), request: () => ({ body: { name: 'Made By Admin', email: `${unique('made')}@example.com`, isAdmin: false } }) },
  'GET /api/users/:id': { expect: adminOnly(200), request: (w) => ({ params: { id: w.users.customer.id } }) },
  'PUT /api/users/:id': {
    expect: adminOnly(200),
    request: (w) => ({ params: { id: w.users.customer.id }, body: { name: w.users.customer.name, email: w.users.customer.email, isAdmin: false } }),
  },
  'DELETE /api/users/:id': { expect: adminOnly(200), request: async (w) => ({ params: { id: (await w.freshUser()).id } }) },

  // discount codes (back office, issue 34.1)
  'GET /api/discounts': { expect: adminOnly(200) },
  'POST /api/discounts': { expect: adminOnly(201), request: () => ({ body: { code: unique('AM').replace(/[^A-Za-z0-9_-]/g, ''), kind: 'percent', value: 10 } }) },
  'GET /api/discounts/:id': { expect: adminOnly(200), request: async (w) => ({ params: { id: await freshDiscount(w) } }) },
  'PUT /api/discounts/:id': {
    expect: adminOnly(200),
    request: async (w) => ({ params: { id: await freshDiscount(w) }, body: { code: unique('AMPUT').replace(/[^A-Za-z0-9_-]/g, ''), kind: 'fixed', value: 5 } }),
  },
  'DELETE /api/discounts/:id': { expect: adminOnly(200), request: async (w) => ({ params: { id: await freshDiscount(w) } }) },

  // leads (back office)
  'GET /api/chat/leads': { expect: adminOnly(200) },
  'PUT /api/chat/leads/:id': { expect: adminOnly(200), request: (w) => ({ params: { id: w.leadId }, body: { status: LEAD_STATUSES[1], notes: 'Called back' } }) },

  // newsletter
  'POST /api/newsletter/subscribe': { expect: all(202), request: () => ({ body: { email: `${unique('news')}@example.com` } }) },
  'POST /api/newsletter/unsubscribe': {
    expect: all(200),
    request: async (w) => {
      const email = `${unique('unsub')}@example.com`;
      await call(w.t, null, 'POST', '/api/newsletter/subscribe', { email });
      return { body: { token: await mailedToken(w.t, email, '/newsletter/unsubscribe') } };
    },
  },

  // information pages (footer): read by anyone, edited by administrators
  'GET /api/pages': { expect: all(200) },
  'GET /api/pages/:slug': { expect: all(200), request: () => ({ params: { slug: 'shipping' } }) },
  'PUT /api/pages/:slug': { expect: adminOnly(200), request: () => ({ params: { slug: 'terms' }, body: { title: 'Terms of Service', body: 'Edited by the matrix.' } }) },
  'GET /api/shipping/settings': { expect: adminOnly(200) },
  'PUT /api/shipping/settings': { expect: adminOnly(200), request: () => ({ body: { flatRate: 0, supplierFreight: 'included' } }) },
  'GET /api/shipping/rates': { expect: all(200) },

  // chat: signed-in users by their session, guests by their guest cookie (none here: anonymous is 401/404)
  'GET /api/chat/verify-guest': { expect: all(200) },
  'POST /api/chat/guest-session': { expect: all(200), request: () => ({ body: { name: 'Guest', email: `${unique('guest')}@example.com` } }) },
  'POST /api/chat/end-guest-session': { expect: all(200) },
  // An administrator writes into the customer's conversation; a customer's recipient is ignored (their own).
  'POST /api/chat/save': { expect: signedIn(201), request: (w) => ({ body: { message: { content: 'Hello from the matrix', clientId: unique('c'), recipientId: w.users.customer.id } } }) },
  'GET /api/chat/user-messages/:userId': { expect: owner(200, 200), request: (w) => ({ params: { userId: w.users.customer.id } }) },
  'GET /api/chat/history': { expect: signedIn(200) },
  // Only the guest whose cookie holds that guestId reads it; nobody here has a guest cookie.
  'GET /api/chat/guest-history': { expect: all(404), request: () => ({ query: { guestId: 'guest_0123456789abcdef' } }) },
  'GET /api/chat/admin-status': { expect: all(200) },
  'POST /api/chat/toggle-admin-status': { expect: adminOnly(200), request: () => ({ body: { isOnline: false } }) },
  'POST /api/chat/ai-response': { expect: signedIn(200), request: () => ({ body: { message: 'What is your return policy?' } }) },
  'GET /api/chat/online-users': { expect: adminOnly(200) },
  'GET /api/chat/all-history': { expect: adminOnly(200) },
  'GET /api/chat/chat/:id': { expect: adminOnly(200), request: (w) => ({ params: { id: w.conversationId } }) },
  'POST /api/chat/chat/:id/read': { expect: adminOnly(200), request: (w) => ({ params: { id: w.conversationId }, body: { messageId: w.chatMessageId } }) },
  // The websocket (its upgrade is checked in its own test below); a plain HTTP GET is not an upgrade.
  'GET /ws/chat': { expect: { anonymous: 401, customer: 101, other: 101, admin: 101 } },
};

/*
 * Who may keep an answer (issue 32). Every answer of a 'user' or 'admin' route, to every role and
 * whatever its status (a 401, 403 or 404 included), is `Cache-Control: private, no-store`. Public
 * routes are each declared here: PRIVATE ones answer with the caller's own data (their session,
 * their guest chat's cookie, everyone's mail, an operations endpoint behind a token) and are
 * private, no-store to every role; PER_VIEWER ones resolve a signed-in user when there is one:
 * private, no-store to a signed-in caller, `Vary: Cookie` to a visitor; SHARED ones answer the same
 * to everyone, keep the caching they had (the value given; null: none) and are never no-store, for
 * a visitor or a signed-in caller. A public route in none of the three fails the suite.
 */
const PRIVATE_NO_STORE = 'private, no-store';
const HOUR = 'public, max-age=3600';
const IMMUTABLE = 'public, max-age=31536000, immutable';
export const PUBLIC_CACHING: { private: string[]; perViewer: string[]; shared: Record<string, string | null> } = {
  private: [
    'GET /metrics', 'GET /api/docs', 'GET /api/docs/json', 'GET /api/docs/yaml', 'GET /api/docs/static/*', 'GET /api/docs/static/index.html',
    'GET /api/docs/static/swagger-initializer.js', 'GET /api/docs/', 'GET /api/dev/mailbox',
    'POST /api/users/confirm-signup', 'POST /api/users/confirm-email', 'POST /api/users/signin', 'POST /api/users/signout', 'POST /api/users/refresh-token', 'GET /api/users/current',
    'GET /api/chat/verify-guest', 'POST /api/chat/guest-session', 'POST /api/chat/end-guest-session', 'POST /api/chat/save',
    'GET /api/chat/user-messages/:userId', 'GET /api/chat/guest-history', 'POST /api/chat/ai-response', 'GET /ws/chat',
  ],
  perViewer: ['GET /api/products/:id'],
  shared: {
    'GET /api/health': null, 'GET /api/live': null, 'GET /api/ready': null,
    'POST /api/users/signup': null, 'POST /api/users/forgot-password': null, 'POST /api/users/reset-password': null,
    'GET /api/products': null, 'GET /api/products/search': null, 'GET /api/products/categories': null, 'GET /api/products/slug/:slug': null,
    'GET /robots.txt': HOUR, 'GET /sitemap.xml': HOUR, 'GET /sitemaps/pages.xml': HOUR, 'GET /sitemaps/products-:part.xml': HOUR,
    'GET /uploads/:key': IMMUTABLE, 'GET /uploads/w/:width/:key': IMMUTABLE,
    'GET /api/keys/paypal': null, 'GET /api/cj/products/saved/slug/:slug': null, 'GET /api/cj/offline-images/v1/:file': IMMUTABLE,
    'POST /api/newsletter/subscribe': null, 'POST /api/newsletter/unsubscribe': null,
    'GET /api/pages': null, 'GET /api/pages/:slug': null, 'GET /api/chat/admin-status': null, 'GET /api/shipping/rates': null,
  },
};

/** What is wrong with an answer's caching headers (null: nothing), by the rules above. */
export function cachingProblem(route: Pick<RegisteredRoute, 'method' | 'url' | 'access'>, role: Role, headers: Record<string, unknown>): string | null {
  const key = declarationKey(route);
  const cacheControl = headers['cache-control'] as string | undefined;
  const vary = String(headers.vary ?? '').toLowerCase().split(',').map((v) => v.trim());
  const mustBePrivate = route.access !== 'public' || PUBLIC_CACHING.private.includes(key) || (PUBLIC_CACHING.perViewer.includes(key) && role !== 'anonymous');
  if (mustBePrivate) return cacheControl === PRIVATE_NO_STORE ? null : `Cache-Control ${String(cacheControl)}, expected ${PRIVATE_NO_STORE}`;
  if (PUBLIC_CACHING.perViewer.includes(key)) return vary.includes('cookie') ? null : `a visitor's answer without Vary: Cookie (Vary ${String(headers.vary)})`;
  if (!(key in PUBLIC_CACHING.shared)) return 'a public route missing from PUBLIC_CACHING: say who may keep its answers';
  const expected = PUBLIC_CACHING.shared[key] ?? undefined;
  if (/no-store|private/.test(cacheControl ?? '')) return `a shared answer marked ${cacheControl}`;
  return cacheControl === expected ? null : `Cache-Control ${String(cacheControl)}, expected ${String(expected)} (as before)`;
}

async function pngMultipart(): Promise<Buffer> {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
    png,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const routeKey = (r: Pick<RegisteredRoute, 'method' | 'url'>) => `${r.method} ${r.url}`;
/** A HEAD route is declared by its GET. */
const declarationKey = (r: Pick<RegisteredRoute, 'method' | 'url'>) => (r.method === 'HEAD' ? `GET ${r.url}` : routeKey(r));

/** Routes of the table that have no declaration. */
export function undeclaredRoutes(routes: Array<Pick<RegisteredRoute, 'method' | 'url'>>, matrix: Record<string, Declaration>): string[] {
  return routes.filter((r) => !matrix[declarationKey(r)]).map(routeKey);
}

/** Declarations that match no route (a route renamed or removed). */
export function staleDeclarations(routes: Array<Pick<RegisteredRoute, 'method' | 'url'>>, matrix: Record<string, Declaration>): string[] {
  const keys = new Set(routes.map(declarationKey));
  return Object.keys(matrix).filter((k) => !keys.has(k));
}

/** A declaration must agree with the route's access rule: the auth layer's answers are fixed by it. */
function contradictions(route: RegisteredRoute, d: Declaration): string[] {
  const e = d.expect;
  const out: string[] = [];
  if (route.access !== 'public' && e.anonymous !== 401) out.push(`${routeKey(route)}: anonymous must be 401 on a '${route.access}' route`);
  if (route.access === 'admin' && (e.customer !== 403 || e.other !== 403)) out.push(`${routeKey(route)}: customers must be 403 on an admin route`);
  return out;
}

function fillUrl(pattern: string, params: Record<string, string> = {}): string {
  return pattern
    .replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
      const v = params[name];
      if (v === undefined) throw new Error(`${pattern}: no value for :${name}`);
      return encodeURIComponent(v);
    })
    .replace(/\*/g, () => params['*'] ?? '');
}

/** Opens the chat socket with a cookie; resolves 101 when it opens, else the HTTP status of the refusal. */
function wsStatus(base: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}/ws/chat`, { headers });
    ws.once('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); ws.terminate(); });
    ws.once('open', () => { resolve(101); ws.close(); });
    ws.once('error', (err) => reject(err));
  });
}

describe(`access matrix (${TEST_DB})`, () => {
  let w: World;
  let routes: RegisteredRoute[];

  beforeAll(async () => {
    const paypal = await startPayPalMock();
    const t = await createTestApp({
      env: {
        PAYPAL_CLIENT_ID: paypal.clientId, PAYPAL_CLIENT_SECRET: paypal.clientSecret, PAYPAL_API_BASE: paypal.url,
        METRICS_ACCESS: 'protected', API_DOCS_ACCESS: 'protected', METRICS_TOKEN: opsToken,
      },
    });
    const customer = await createUser(t, { name: 'Customer A' });
    const other = await createUser(t, { name: 'Customer B' });
    const admin = await createAdmin(t, { name: 'Admin' });
    const users = { customer, other, admin };
    const product = await createProduct(t, { countInStock: 10_000 });
    let freshUsers = 0;
    const world: World = {
      t, paypal, users,
      productId: product.id,
      productSlug: product.slug,
      order: { id: '' }, addressId: '', conversationId: '', chatMessageId: '', leadId: '', uploadKey: '', offlineImage: '',
      supplier: { pid: '', spareP: '', savedId: '', savedSlug: '', paidOrderId: '' },
      userOf: (role) => (role === 'anonymous' ? null : users[role]),
      freshSession: async (role) => {
        const u = role === 'anonymous' ? null : users[role];
        if (!u) return undefined;
        return sessionCookie(await startSession(t.database.db, { signer: t.app.ctx.signer, refreshTokenTtlDays: t.config.refreshTokenTtlDays }, u.id));
      },
      freshProduct: async () => (await createProduct(t, { countInStock: 100 })).id,
      // A product of its own, so that it is a new order (the same cart again answers the same unpaid order).
      freshOrder: async () => (await placeOrderFor(t, customer, [{ productId: (await createProduct(t)).id, quantity: 1 }]))._id,
      freshUser: async () => createUser(t, { name: `Spare ${(freshUsers += 1)}` }),
    };

    // The customer's own data: an address, an order, chat messages (which make them a lead).
    world.addressId = (await createAddressFor(t, customer))._id;
    world.order.id = await world.freshOrder();
    const said = await call<{ message: { id: string } }>(t, customer, 'POST', '/api/chat/save', { message: { content: 'Do you have headphones in stock?', clientId: 'seed-1' } });
    expect(said.status).toBe(201);
    world.chatMessageId = said.body.message.id;
    await t.app.ctx.background.flush();
    const chats = await call<{ chats: Array<{ _id: string; userId: string }> }>(t, admin, 'GET', `/api/chat/all-history?search=${encodeURIComponent(customer.email)}`);
    world.conversationId = chats.body.chats.find((c) => c.userId === customer.id)!._id;
    // The assistant answers (and queues the lead's job) after the message is stored: wait for it.
    for (let i = 0; i < 100 && !world.leadId; i += 1) {
      await t.app.ctx.jobs.runDue();
      const leads = await call<{ leads: Array<{ _id: string }> }>(t, admin, 'GET', `/api/chat/leads?search=${encodeURIComponent(customer.email)}`);
      world.leadId = leads.body.leads[0]?._id ?? '';
      if (!world.leadId) await new Promise((r) => setTimeout(r, 100));
    }
    expect(world.leadId).not.toBe('');

    // An uploaded image, and the supplier catalogue: a saved product the customer bought and paid.
    const uploaded = await t.app.inject({ method: 'POST', url: '/api/upload', payload: await pngMultipart(), headers: { cookie: admin.cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } });
    expect(uploaded.statusCode).toBe(201);
    world.uploadKey = (uploaded.json() as { secure_url: string }).secure_url.replace(/^\/uploads\//, '');
    const catalogue = await call<{ data: { content: Array<{ pid: string }> } }>(t, admin, 'GET', '/api/cj/products?page=1');
    const [first, second] = catalogue.body.data.content;
    world.supplier.pid = first!.pid;
    world.supplier.spareP = second!.pid;
    world.offlineImage = /\/api\/cj\/offline-images\/v1\/([^"?\\]+)/.exec(JSON.stringify(first))![1]!;
    const saved = await call<{ product: { _id: string; slug: string } }>(t, admin, 'POST', '/api/cj/products/save', { pid: first!.pid, countInStock: 100 });
    expect(saved.status).toBe(201);
    world.supplier.savedId = saved.body.product._id;
    world.supplier.savedSlug = saved.body.product.slug;
    const supplierOrder = (await placeOrderFor(t, customer, [{ productId: saved.body.product._id, quantity: 1 }]))._id;
    await payAsOwner(world, customer, supplierOrder);
    world.supplier.paidOrderId = supplierOrder;

    w = world;
    routes = listRegisteredRoutes(t.app);
  }, 120_000);

  afterAll(async () => {
    await w?.t.close();
    await w?.paypal.close();
  });

  it('has a declaration for every route of the route table, and none for a route that does not exist', () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(undeclaredRoutes(routes, MATRIX)).toEqual([]);
    expect(staleDeclarations(routes, MATRIX)).toEqual([]);
  });

  it('fails for a route added without a declaration (the check can fail)', () => {
    const added = [...routes, { method: 'GET', url: '/api/brand-new' }, { method: 'HEAD', url: '/api/brand-new' }, { method: 'POST', url: '/api/orders/:id/gift' }];
    expect(undeclaredRoutes(added, MATRIX)).toEqual(['GET /api/brand-new', 'HEAD /api/brand-new', 'POST /api/orders/:id/gift']);
    const { ['GET /api/orders/:id']: _removed, ...withoutOne } = MATRIX;
    expect(undeclaredRoutes(routes, withoutOne)).toEqual(['GET /api/orders/:id', 'HEAD /api/orders/:id']);
    expect(staleDeclarations(routes, { ...MATRIX, 'GET /api/gone': { expect: all(200) } })).toEqual(['GET /api/gone']);
  });

  it('declares the caching of every public route once, and of no route that does not exist; the caching check can fail', () => {
    const publicKeys = new Set(routes.filter((r) => r.access === 'public').map(declarationKey));
    const declared = [...PUBLIC_CACHING.private, ...PUBLIC_CACHING.perViewer, ...Object.keys(PUBLIC_CACHING.shared)];
    expect(declared.filter((k) => !publicKeys.has(k))).toEqual([]);
    expect([...publicKeys].filter((k) => !declared.includes(k))).toEqual([]);
    expect(declared.length).toBe(new Set(declared).size);
    const cart = { method: 'GET', url: '/api/cart', access: 'user' } as const;
    expect(cachingProblem(cart, 'customer', {})).toBe('Cache-Control undefined, expected private, no-store');
    expect(cachingProblem(cart, 'anonymous', { 'cache-control': 'no-cache' })).toBe('Cache-Control no-cache, expected private, no-store');
    expect(cachingProblem(cart, 'anonymous', { 'cache-control': 'private, no-store' })).toBeNull();
    const search = { method: 'GET', url: '/api/products/search', access: 'public' } as const;
    expect(cachingProblem(search, 'customer', { 'cache-control': 'private, no-store' })).toBe('a shared answer marked private, no-store');
    expect(cachingProblem(search, 'customer', {})).toBeNull();
    const image = { method: 'GET', url: '/uploads/:key', access: 'public' } as const;
    expect(cachingProblem(image, 'admin', { 'cache-control': 'no-cache' })).toBe('Cache-Control no-cache, expected public, max-age=31536000, immutable (as before)');
    const product = { method: 'GET', url: '/api/products/:id', access: 'public' } as const;
    expect(cachingProblem(product, 'anonymous', { vary: 'accept-encoding' })).toBe("a visitor's answer without Vary: Cookie (Vary accept-encoding)");
    expect(cachingProblem(product, 'anonymous', { vary: 'accept-encoding, Cookie' })).toBeNull();
    expect(cachingProblem(product, 'admin', { vary: 'Cookie' })).toBe('Cache-Control undefined, expected private, no-store');
    expect(cachingProblem({ method: 'GET', url: '/api/brand-new', access: 'public' }, 'anonymous', {}))
      .toBe('a public route missing from PUBLIC_CACHING: say who may keep its answers');
  });

  it('answers every route, for every role, with the declared status', async () => {
    const failures: string[] = [];
    const counts = { public: 0, user: 0, admin: 0 };
    const statuses = new Map<number, number>();
    let requests = 0;
    let sockets = 0;
    let cachingChecked = 0;
    for (const route of routes) {
      const declaration = MATRIX[declarationKey(route)];
      if (!declaration) {
        failures.push(`${routeKey(route)}: no declaration in MATRIX`);
        continue;
      }
      if (route.isWebsocket) {
        sockets += route.method === 'GET' ? 1 : 0;
        continue; // the upgrade is checked below
      }
      counts[route.access] += 1;
      failures.push(...contradictions(route, declaration));
      for (const role of ['anonymous', 'other', 'customer', 'admin'] as const) {
        const req = (await declaration.request?.(w, role)) ?? {};
        const user = w.userOf(role);
        const cookie = req.cookie ?? user?.cookie;
        const method = route.method as Method;
        const sendsBody = method !== 'GET' && method !== 'HEAD' && method !== 'DELETE';
        const res = await w.t.app.inject({
          method,
          url: fillUrl(route.url, req.params),
          query: req.query,
          headers: { ...(cookie ? { cookie } : {}), ...req.headers },
          ...(req.payload ? { payload: req.payload } : sendsBody && req.body !== undefined ? { payload: req.body as object } : {}),
        });
        requests += 1;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const expected = declaration.expect[role];
        const where = `${routeKey(route)} as ${role}`;
        const caching = cachingProblem(route, role, res.headers);
        if (caching) failures.push(`${where} (${res.statusCode}): ${caching}`);
        else cachingChecked += 1;
        if (res.statusCode !== expected) {
          failures.push(`${where}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 200)}`);
          continue;
        }
        // The auth layer's refusals carry the one error shape.
        if (method !== 'HEAD' && route.access !== 'public' && expected === 401 && role === 'anonymous' && JSON.stringify(res.json()) !== JSON.stringify(UNAUTHORIZED)) {
          failures.push(`${where}: 401 body ${res.body}`);
        }
        if (method !== 'HEAD' && route.access === 'admin' && expected === 403 && JSON.stringify(res.json()) !== JSON.stringify(FORBIDDEN)) {
          failures.push(`${where}: 403 body ${res.body}`);
        }
      }
    }
    const total = counts.public + counts.user + counts.admin;
    console.info(
      `access matrix (${TEST_DB}): ${total} HTTP routes (${counts.public} public, ${counts.user} user, ${counts.admin} admin) x ${ROLES.length} roles = ${requests} requests (+ ${sockets} websocket route, below); ` +
      `statuses ${[...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' ')}; caching headers as declared on ${cachingChecked}; ${failures.length} not as declared`,
    );
    expect(failures).toEqual([]);
  }, 180_000);

  it("keeps the customer's data away from the other customer: no message of B in A's conversation", async () => {
    const a = await call<{ messages: Array<{ senderId: string }> }>(w.t, w.users.customer, 'GET', `/api/chat/user-messages/${w.users.customer.id}`);
    expect(a.status).toBe(200);
    expect(a.body.messages.length).toBeGreaterThan(0);
    expect(a.body.messages.filter((m) => m.senderId === w.users.other.id)).toEqual([]);
    // ...and the order B tried to read is untouched and still A's.
    const order = await call<{ user: { _id: string } | string }>(w.t, w.users.customer, 'GET', `/api/orders/${w.order.id}`);
    expect(order.status).toBe(200);
  });

  it('opens the chat socket for signed-in users and guests only; refuses a foreign Origin', async () => {
    const base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    const declared = MATRIX['GET /ws/chat']!.expect;
    const got: Statuses = { anonymous: 0, customer: 0, other: 0, admin: 0 };
    for (const role of ROLES) {
      const cookie = w.userOf(role)?.cookie;
      got[role] = await wsStatus(base, cookie ? { cookie } : {});
    }
    expect(got).toEqual(declared);
    const guest = await w.t.app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name: 'Gus', email: 'gus@example.com' } });
    const guestCookie = guest.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect(await wsStatus(base, { cookie: guestCookie })).toBe(101);
    expect(await wsStatus(base, { cookie: w.users.customer.cookie, origin: 'https://evil.example' })).toBe(403);
    expect(await wsStatus(base, { cookie: 'chat_guest=forged.value' })).toBe(401);
  });
});

/*
 * The chat socket, frame by frame (issue 19): each client frame type of @shop/contracts, sent by
 * each kind of caller, and what comes back. An administrator's message names the conversation
 * (`recipientId`); anyone else's lands in their own conversation whatever it names.
 */
const SOCKET_ROLES = ['anonymous', 'guest', 'customer', 'other', 'admin', 'demoted admin'] as const;
type SocketRole = (typeof SOCKET_ROLES)[number];
const SOCKET_FRAMES = {
  'message': (clientId: string) => ({ type: 'message', content: 'Hello from the socket matrix', clientId }),
  'message naming customer A': (clientId: string, a: string) => ({ type: 'message', content: 'For customer A', clientId, recipientId: a }),
  'ping': () => ({ type: 'ping' }),
  'pong': () => ({ type: 'pong' }),
  'activity': () => ({ type: 'activity' }),
  'wrong field type': (clientId: string) => ({ type: 'message', content: 42, clientId }),
} as const;
type SocketFrame = keyof typeof SOCKET_FRAMES;
const asCustomer: Record<SocketFrame, string> = {
  'message': 'ack in own conversation', 'message naming customer A': 'ack in own conversation', 'ping': 'pong', 'pong': 'nothing',
  'activity': 'nothing', 'wrong field type': 'error: Invalid message',
};
const SOCKET_MATRIX: Record<SocketRole, Record<SocketFrame, string>> = {
  'anonymous': Object.fromEntries(Object.keys(SOCKET_FRAMES).map((f) => [f, 'refused: HTTP 401'])) as Record<SocketFrame, string>,
  'guest': asCustomer,
  'customer': asCustomer,
  'other': asCustomer,
  'admin': { ...asCustomer, 'message': 'error: Please select a user to chat with', 'message naming customer A': "ack in customer A's conversation" },
  'demoted admin': asCustomer,
};

describe(`access matrix: the chat socket, frame by frame (${TEST_DB})`, () => {
  let t: TestApp;
  let base: string;
  const cookies = {} as Record<Exclude<SocketRole, 'anonymous'>, string>;
  const ids = {} as Record<Exclude<SocketRole, 'anonymous'>, string>;
  let demoted: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { CHAT_SOCKETS_PER_IP: '100' } });
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    const [customer, other, admin] = [await createUser(t, { name: 'Customer A' }), await createUser(t, { name: 'Customer B' }), await createAdmin(t, { name: 'Admin' })];
    demoted = await createAdmin(t, { name: 'Former Admin' });
    const demote = await call(t, admin, 'PUT', `/api/users/${demoted.id}`, { name: demoted.name, email: demoted.email, isAdmin: false });
    expect(demote.status).toBe(200);
    const guest = await t.app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name: 'Gus', email: 'gus@example.com' } });
    cookies.guest = guest.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    ids.guest = guest.json<{ guestId: string }>().guestId;
    for (const [role, u] of [['customer', customer], ['other', other], ['admin', admin], ['demoted admin', demoted]] as const) {
      cookies[role] = u.cookie;
      ids[role] = u.id;
    }
  }, 120_000);
  afterAll(async () => { await t?.close(); });

  /** What one frame brings back on an open socket: an ack (whose conversation), an error, a pong, or nothing. */
  async function observe(ws: WebSocket, events: Array<Record<string, unknown>>, frame: SocketFrame, role: Exclude<SocketRole, 'anonymous'>): Promise<string> {
    const from = events.length;
    const clientId = unique('sm');
    ws.send(JSON.stringify(SOCKET_FRAMES[frame](clientId, ids.customer)));
    // A ping after the frame: frames are handled in order, so its pong closes the observation.
    if (!frame.startsWith('message')) ws.send(JSON.stringify({ type: 'ping' }));
    const pongsWanted = frame === 'ping' ? 2 : 1;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const seen = events.slice(from);
      const answer = seen.find((e) => (e.type === 'ack' || e.type === 'error') && (e.clientId === clientId || e.clientId === undefined));
      if (answer?.type === 'error') return `error: ${String(answer.message)}`;
      if (answer?.type === 'ack') {
        const owner = (answer.message as { userId: string }).userId;
        return owner === ids[role] ? 'ack in own conversation' : owner === ids.customer ? "ack in customer A's conversation" : `ack in ${owner}'s conversation`;
      }
      if (!frame.startsWith('message') && seen.filter((e) => e.type === 'pong').length >= pongsWanted) return frame === 'ping' ? 'pong' : 'nothing';
      if (Date.now() > deadline) return `no answer (${seen.map((e) => String(e.type)).join(', ')})`;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('answers each frame type, for each role, as declared; a demoted administrator has a customer\'s rights', async () => {
    const got = {} as Record<SocketRole, Record<SocketFrame, string>>;
    let observations = 0;
    for (const role of SOCKET_ROLES) {
      got[role] = {} as Record<SocketFrame, string>;
      if (role === 'anonymous') {
        const status = await wsStatus(base, {});
        for (const frame of Object.keys(SOCKET_FRAMES) as SocketFrame[]) { got[role][frame] = status === 101 ? 'opened' : `refused: HTTP ${status}`; observations += 1; }
        continue;
      }
      const ws = new WebSocket(`${base}/ws/chat`, { headers: { cookie: cookies[role] } });
      const events: Array<Record<string, unknown>> = [];
      ws.on('message', (raw) => events.push(JSON.parse(String(raw)) as Record<string, unknown>));
      await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
      for (let i = 0; i < 200 && !events.some((e) => e.type === 'hello'); i += 1) await new Promise((r) => setTimeout(r, 20));
      const hello = events.find((e) => e.type === 'hello') as { user: { isAdmin: boolean } } | undefined;
      expect(hello?.user.isAdmin, role).toBe(role === 'admin');
      for (const frame of Object.keys(SOCKET_FRAMES) as SocketFrame[]) {
        got[role][frame] = await observe(ws, events, frame, role);
        observations += 1;
      }
      ws.close();
    }
    // An administrator demoted while their socket is open: it closes with 4001 (renew and reconnect as a customer).
    const stillAdmin = await createAdmin(t, { name: 'Soon Demoted' });
    const ws = new WebSocket(`${base}/ws/chat`, { headers: { cookie: stillAdmin.cookie } });
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    await new Promise((resolve) => ws.once('open', resolve));
    const [admin] = [await createAdmin(t)];
    expect((await call(t, admin, 'PUT', `/api/users/${stillAdmin.id}`, { name: stillAdmin.name, email: stillAdmin.email, isAdmin: false })).status).toBe(200);
    expect(await closed).toBe(4001);
    observations += 1;
    console.info(`access matrix, chat socket (${TEST_DB}): ${Object.keys(SOCKET_FRAMES).length} frame types x ${SOCKET_ROLES.length} roles + 1 demotion on an open socket = ${observations} observations`);
    expect(got).toEqual(SOCKET_MATRIX);
  }, 120_000);
});

describe('route registration', () => {
  it('refuses to register a route without an access rule', async () => {
    const app = Fastify({ logger: false });
    const register = async () => {
      await app.register(authPlugin, {
        // registration alone never touches the database
        signer: createTokenSigner('x'.repeat(32), 60), db: undefined as unknown as Executor, accessTokenTtlSeconds: 60, refreshTokenTtlDays: 1, cookieSecure: false,
      });
      await app.register(async (child) => {
        child.get('/api/forgotten', async () => ({ ok: true }));
      });
      await app.ready();
    };
    try {
      await expect(register()).rejects.toThrow("Route GET /api/forgotten must declare config.access ('public' | 'user' | 'admin')");
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
