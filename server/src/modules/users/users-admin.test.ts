import { USER_MESSAGES, type AdminUser, type UserListResponse } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, cartItems, orders, users } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { call } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { latestMailTo, tokenFromLink } from './users.test-helpers.ts';

const SECRET_KEYS = /password|hash|token|session|refresh/i;
const assertNoSecrets = (body: unknown) => {
  const text = JSON.stringify(body);
  for (const key of Object.keys(JSON.parse(text) as object)) expect(key).not.toMatch(SECRET_KEYS);
  expect(text).not.toMatch(/"(passwordHash|password_hash|token|refreshToken|resetToken)"/);
  expect(text).not.toMatch(/\$argon2/);
};

describe('users administration API', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t, { name: 'Ada Admin' });
    customer = await createUser(t, { name: 'Carl Customer', email: 'carl@example.com' });
  });
  afterAll(async () => { await t.close(); });

  it('answers 401 to anonymous and 403 to customers on every users route', async () => {
    const routes: Array<['GET' | 'PUT' | 'DELETE' | 'POST', string, unknown?]> = [
      ['GET', '/api/users'], ['GET', `/api/users/${customer.id}`], ['DELETE', `/api/users/${customer.id}`],
      ['PUT', `/api/users/${customer.id}`, { name: 'x', email: 'x@example.com', isAdmin: true }],
      ['POST', '/api/users', { name: 'x', email: 'new@example.com', isAdmin: true }],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(t, null, method, url, body)).status, `${method} ${url} anonymous`).toBe(401);
      expect((await call(t, customer, method, url, body)).status, `${method} ${url} customer`).toBe(403);
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, customer.id));
    expect(row).toMatchObject({ isAdmin: false, name: 'Carl Customer' });
  });

  it('lists users newest first, paged, searchable by name or e-mail, with order counts and no secret field', async () => {
    for (let i = 0; i < 3; i += 1) await createUser(t, { name: `Paging Person ${i}`, email: `paging${i}@example.com` });
    const first = await call<UserListResponse>(t, admin, 'GET', '/api/users?search=paging&pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pages: 2, countUsers: 3 });
    expect(first.body.users.map((u) => u.name)).toEqual(['Paging Person 2', 'Paging Person 1']);
    const second = await call<UserListResponse>(t, admin, 'GET', '/api/users?search=PAGING&pageSize=2&page=2');
    expect(second.body.users.map((u) => u.email)).toEqual(['paging0@example.com']);
    const byEmail = await call<UserListResponse>(t, admin, 'GET', '/api/users?search=carl%40example');
    expect(byEmail.body.users).toHaveLength(1);
    expect(Object.keys(byEmail.body.users[0]!).sort()).toEqual(['_id', 'createdAt', 'email', 'isAdmin', 'name', 'numOrders']);
    assertNoSecrets(byEmail.body.users[0]);
    expect((await call(t, admin, 'GET', '/api/users?page=0')).status).toBe(400);
    expect((await call<{ message: string }>(t, admin, 'GET', '/api/users?pageSize=1000')).body.message).toMatch(/at most 100/);
  });

  it("counts each user's own orders (a customer with orders, one without, guest orders not counted)", async () => {
    const buyer = await createUser(t, { name: 'Olive Orders', email: 'olive@example.com' });
    const other = await createUser(t, { name: 'Nora None', email: 'nora@example.com' });
    const order = (userId: string | null) => ({
      id: newId(), userId, shippingAddress: { fullName: 'O', address: 'a', city: 'c', postalCode: '1', country: 'X' },
      paymentMethod: 'PayPal', itemsPrice: 1, shippingPrice: 0, taxPrice: 0, totalPrice: 1,
    });
    await t.database.db.insert(orders).values([order(buyer.id), order(buyer.id), order(buyer.id), order(null)]);
    const list = await call<UserListResponse>(t, admin, 'GET', '/api/users?search=%40example.com&pageSize=100');
    const counts = Object.fromEntries(list.body.users.map((u) => [u.email, u.numOrders]));
    expect(counts['olive@example.com']).toBe(3);
    expect(counts['nora@example.com']).toBe(0);
    expect((await call<AdminUser>(t, admin, 'GET', `/api/users/${buyer.id}`)).body.numOrders).toBe(3);
    expect((await call<AdminUser>(t, admin, 'GET', `/api/users/${other.id}`)).body.numOrders).toBe(0);
  });

  it('GET /users/:id answers the user or 404', async () => {
    const res = await call<AdminUser>(t, admin, 'GET', `/api/users/${customer.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: customer.id, name: 'Carl Customer', isAdmin: false, numOrders: 0 });
    assertNoSecrets(res.body);
    expect((await call<{ message: string }>(t, admin, 'GET', `/api/users/${newId()}`)).body).toMatchObject({ message: USER_MESSAGES.notFound });
    expect((await call(t, admin, 'GET', '/api/users/not-an-id')).status).toBe(404);
  });

  it('updates name, e-mail and admin flag; keeps e-mails unique case-insensitively; validates input', async () => {
    const u = await createUser(t, { name: 'Edit Me' });
    const res = await call<{ message: string; user: AdminUser }>(t, admin, 'PUT', `/api/users/${u.id}`, { id: u.id, name: 'Edited', email: 'Edited@Example.com', isAdmin: true });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(USER_MESSAGES.updated);
    expect(res.body.user).toMatchObject({ name: 'Edited', email: 'edited@example.com', isAdmin: true });
    assertNoSecrets(res.body);
    const clash = await call<{ message: string }>(t, admin, 'PUT', `/api/users/${u.id}`, { name: 'Edited', email: 'CARL@example.com', isAdmin: true });
    expect(clash).toMatchObject({ status: 409, body: { message: USER_MESSAGES.emailInUse } });
    const bad = await call<{ message: string }>(t, admin, 'PUT', `/api/users/${u.id}`, { name: '', email: 'nope', isAdmin: 'yes' });
    expect(bad.status).toBe(400);
    expect((await call(t, admin, 'PUT', `/api/users/${newId()}`, { name: 'a', email: 'a@example.com', isAdmin: false })).status).toBe(404);
  });

  it('a demoted administrator loses admin access on the very next request', async () => {
    const other = await createAdmin(t, { name: 'Soon Demoted' });
    expect((await call(t, other, 'GET', '/api/users')).status).toBe(200);
    const res = await call(t, admin, 'PUT', `/api/users/${other.id}`, { name: other.name, email: other.email, isAdmin: false });
    expect(res.status).toBe(200);
    expect((await call(t, other, 'GET', '/api/users')).status).toBe(403);
  });

  it('refuses to let administrators delete or demote themselves (409, nothing changes)', async () => {
    const del = await call<{ message: string }>(t, admin, 'DELETE', `/api/users/${admin.id}`);
    expect(del).toMatchObject({ status: 409, body: { message: USER_MESSAGES.cannotDeleteSelf } });
    const demote = await call<{ message: string }>(t, admin, 'PUT', `/api/users/${admin.id}`, { name: 'Renamed', email: admin.email, isAdmin: false });
    expect(demote).toMatchObject({ status: 409, body: { message: USER_MESSAGES.cannotDemoteSelf } });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row).toMatchObject({ isAdmin: true, name: 'Ada Admin' });
  });

  it('never demotes or deletes the last administrator', async () => {
    const solo = await createTestApp();
    try {
      const a = await createAdmin(solo);
      const b = await createAdmin(solo);
      // Two administrators: demoting one is fine, and then `a` is the last one.
      expect((await call(solo, a, 'PUT', `/api/users/${b.id}`, { name: b.name, email: b.email, isAdmin: false })).status).toBe(200);
      expect(await solo.database.db.select().from(users).where(eq(users.isAdmin, true))).toHaveLength(1);
      // Through the API only `a` could act on `a` (the self rules answer first), so ask the use cases as another actor.
      const { deleteUserAsAdmin, updateUserAsAdmin } = await import('./manage-user.ts');
      await expect(deleteUserAsAdmin(solo.database.db, newId(), a.id)).rejects.toMatchObject({ statusCode: 409, message: USER_MESSAGES.lastAdmin });
      await expect(updateUserAsAdmin(solo.database.db, newId(), a.id, { name: 'x', email: a.email, isAdmin: false })).rejects.toMatchObject({ statusCode: 409, message: USER_MESSAGES.lastAdmin });
      const [row] = await solo.database.db.select().from(users).where(eq(users.id, a.id));
      expect(row?.isAdmin).toBe(true);
    } finally {
      await solo.close();
    }
  });

  it('deleting a user ends their sessions, removes cart and addresses, keeps orders as DELETED USER', async () => {
    const victim = await createUser(t, { name: 'Gone Soon' });
    const orderId = newId();
    await t.database.db.insert(orders).values({
      id: orderId, userId: victim.id, paymentMethod: 'PayPal', itemsPrice: 10, shippingPrice: 0, taxPrice: 0, totalPrice: 10,
      shippingAddress: { fullName: 'G', address: 'a', city: 'c', postalCode: '1', country: 'X' },
    });
    await t.database.db.insert(addresses).values({ id: newId(), userId: victim.id, fullName: 'G', address: 'a', city: 'c', postalCode: '1', country: 'X' });
    await t.database.db.insert(cartItems).values({ userId: victim.id, productId: newId(), quantity: 1, name: 'Thing' });
    expect((await call(t, victim, 'GET', '/api/users/current')).body).toMatchObject({ _id: victim.id });
    const res = await call<{ message: string }>(t, admin, 'DELETE', `/api/users/${victim.id}`);
    expect(res).toMatchObject({ status: 200, body: { message: USER_MESSAGES.deleted } });
    expect((await call(t, victim, 'GET', '/api/orders/mine')).status).toBe(401);
    expect(await t.database.db.select().from(addresses).where(eq(addresses.userId, victim.id))).toHaveLength(0);
    expect(await t.database.db.select().from(cartItems).where(eq(cartItems.userId, victim.id))).toHaveLength(0);
    const order = await call<{ user: unknown }>(t, admin, 'GET', `/api/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body.user).toBeNull();
    expect((await call(t, admin, 'DELETE', `/api/users/${victim.id}`)).status).toBe(404);
  });

  it('creates an account without a password and mails a set-password link through the outbox', async () => {
    const res = await call<{ message: string; user: AdminUser }>(t, admin, 'POST', '/api/users', { name: 'New Hire', email: 'New.Hire@Example.com', isAdmin: false });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ name: 'New Hire', email: 'new.hire@example.com', isAdmin: false });
    assertNoSecrets(res.body);
    const mail = await latestMailTo(t, 'new.hire@example.com');
    const token = tokenFromLink(mail!.text, '/reset-password');
    const signInBefore = await call(t, null, 'POST', '/api/users/signin', { email: 'new.hire@example.com', password: '!no-password-set' });
    expect(signInBefore.status).toBe(401);
    expect((await call(t, null, 'POST', '/api/users/reset-password', { token, password: 'a-good-password' })).status).toBe(200);
    expect((await call(t, null, 'POST', '/api/users/signin', { email: 'new.hire@example.com', password: 'a-good-password' })).status).toBe(200);
    const dup = await call<{ message: string }>(t, admin, 'POST', '/api/users', { name: 'Again', email: 'NEW.HIRE@example.com' });
    expect(dup).toMatchObject({ status: 409, body: { message: USER_MESSAGES.emailInUse } });
    expect((await call(t, admin, 'POST', '/api/users', { name: '', email: 'bad' })).status).toBe(400);
  });
});
