import type { Address } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAddressFor, sampleAddress } from '../../test/commerce-factories.ts';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';

const DUPLICATE = { status: 400, body: { message: 'This address already exists in your address book', code: 'DUPLICATE_ADDRESS' } };
const NOT_FOUND = { status: 404, body: { message: 'Address not found', code: 'NOT_FOUND' } };

describe('addresses API', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await createUser(t);
    bob = await createUser(t);
  });
  afterAll(async () => { await t.close(); });

  const list = async (u: TestUser) => (await call<Address[]>(t, u, 'GET', '/api/addresses')).body;

  it('requires a signed-in user', async () => {
    expect((await call(t, null, 'GET', '/api/addresses')).status).toBe(401);
    expect((await call(t, null, 'POST', '/api/addresses', sampleAddress())).status).toBe(401);
  });

  it('creates addresses; the first becomes the default; lists default first', async () => {
    const u = await createUser(t);
    expect(await list(u)).toEqual([]);
    const first = await createAddressFor(t, u, { ...sampleAddress(1), fullName: '  Jane  ' });
    expect(first).toMatchObject({ fullName: 'Jane', address: '1 Main Street', city: 'Springfield', postalCode: '10001', country: 'USA', isDefault: true });
    expect(first._id).toMatch(/^[0-9a-f]{24}$/);
    const second = await createAddressFor(t, u, sampleAddress(2));
    expect(second.isDefault).toBe(false);
    const third = await createAddressFor(t, u, { ...sampleAddress(3), isDefault: true });
    expect(third.isDefault).toBe(true);
    const all = await list(u);
    expect(all.map((a) => [a._id, a.isDefault])).toEqual([[third._id, true], [first._id, false], [second._id, false]]);
  });

  it('requires every field, with a message naming it', async () => {
    const cases: Array<[string, string]> = [
      ['fullName', 'Full name is required'], ['address', 'Address is required'], ['city', 'City is required'],
      ['postalCode', 'Postal code is required'], ['country', 'Country is required'],
    ];
    for (const [field, message] of cases) {
      const missing = await call(t, alice, 'POST', '/api/addresses', { ...sampleAddress(), [field]: undefined });
      expect(missing.status, field).toBe(400);
      expect(missing.body).toMatchObject({ message });
      const blank = await call(t, alice, 'POST', '/api/addresses', { ...sampleAddress(), [field]: '   ' });
      expect(blank.body).toMatchObject({ message, fieldErrors: { [field]: message } });
    }
  });

  it('refuses a duplicate, compared trimmed and case-insensitively', async () => {
    const u = await createUser(t);
    await createAddressFor(t, u, { fullName: 'A', address: '12 Oak Road', city: 'Leeds', postalCode: 'LS1 4AP', country: 'UK' });
    const dup = await call(t, u, 'POST', '/api/addresses', {
      fullName: 'Someone Else', address: '  12 OAK road ', city: 'leeds', postalCode: 'ls1 4ap ', country: ' uk',
    });
    expect(dup).toEqual(DUPLICATE);
    // Another user may have the same address.
    expect((await call(t, bob, 'POST', '/api/addresses', { fullName: 'B', address: '12 Oak Road', city: 'Leeds', postalCode: 'LS1 4AP', country: 'UK' })).status).toBe(201);
  });

  it('applies the duplicate rule on edit, excluding the address being edited', async () => {
    const u = await createUser(t);
    const a = await createAddressFor(t, u, sampleAddress(1));
    const b = await createAddressFor(t, u, sampleAddress(2));
    // Saving an address unchanged (or re-cased) is not a duplicate of itself.
    const same = await call<Address>(t, u, 'PUT', `/api/addresses/${a._id}`, { ...sampleAddress(1), address: '1 MAIN STREET', fullName: 'Renamed' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ _id: a._id, fullName: 'Renamed', address: '1 MAIN STREET', isDefault: true });
    // Editing b into a copy of a is refused.
    expect(await call(t, u, 'PUT', `/api/addresses/${b._id}`, { ...sampleAddress(1), address: ' 1 main street ' })).toEqual(DUPLICATE);
    expect((await list(u)).find((x) => x._id === b._id)).toMatchObject({ address: '2 Main Street' });
  });

  it('keeps exactly one default: set default, and deleting the default promotes another', async () => {
    const u = await createUser(t);
    const a = await createAddressFor(t, u, sampleAddress(1));
    const b = await createAddressFor(t, u, sampleAddress(2));
    const c = await createAddressFor(t, u, sampleAddress(3));
    const after = await call<Address[]>(t, u, 'PUT', `/api/addresses/${c._id}/default`);
    expect(after.status).toBe(200);
    expect(after.body.filter((x) => x.isDefault).map((x) => x._id)).toEqual([c._id]);
    expect(after.body[0]!._id).toBe(c._id);

    // isDefault: false on the default is ignored: there is always one default.
    const kept = await call<Address>(t, u, 'PUT', `/api/addresses/${c._id}`, { ...sampleAddress(3), isDefault: false });
    expect(kept.body.isDefault).toBe(true);
    // isDefault: true on edit moves the default.
    const moved = await call<Address>(t, u, 'PUT', `/api/addresses/${b._id}`, { ...sampleAddress(2), isDefault: true });
    expect(moved.body.isDefault).toBe(true);
    expect((await list(u)).filter((x) => x.isDefault).map((x) => x._id)).toEqual([b._id]);

    const del = await call(t, u, 'DELETE', `/api/addresses/${b._id}`);
    expect(del).toEqual({ status: 200, body: { message: 'Address deleted successfully' } });
    const rest = await list(u);
    expect(rest.map((x) => x._id).sort()).toEqual([a._id, c._id].sort());
    expect(rest.filter((x) => x.isDefault).map((x) => x._id)).toEqual([a._id]); // the oldest remaining
    await call(t, u, 'DELETE', `/api/addresses/${c._id}`);
    expect((await list(u)).map((x) => [x._id, x.isDefault])).toEqual([[a._id, true]]);
    await call(t, u, 'DELETE', `/api/addresses/${a._id}`);
    expect(await list(u)).toEqual([]);
    // After the book is empty, the next address is the default again.
    expect((await createAddressFor(t, u, sampleAddress(4))).isDefault).toBe(true);
  });

  it("answers 404 'Address not found' for another customer's address on every route", async () => {
    const mine = await createAddressFor(t, alice, sampleAddress(7));
    expect(await call(t, bob, 'PUT', `/api/addresses/${mine._id}`, sampleAddress(8))).toEqual(NOT_FOUND);
    expect(await call(t, bob, 'DELETE', `/api/addresses/${mine._id}`)).toEqual(NOT_FOUND);
    expect(await call(t, bob, 'PUT', `/api/addresses/${mine._id}/default`)).toEqual(NOT_FOUND);
    expect((await list(bob)).some((x) => x._id === mine._id)).toBe(false);
    expect(await call(t, alice, 'DELETE', '/api/addresses/not-an-id')).toEqual(NOT_FOUND);
    expect(await call(t, alice, 'DELETE', '/api/addresses/aaaaaaaaaaaaaaaaaaaaaaaa')).toEqual(NOT_FOUND);
    // Still there, unchanged.
    expect((await list(alice)).find((x) => x._id === mine._id)).toMatchObject({ address: '7 Main Street' });
  });

  it('concurrent identical creates store the address once', async () => {
    const u = await createUser(t);
    const results = await Promise.all(Array.from({ length: 5 }, () => call(t, u, 'POST', '/api/addresses', sampleAddress(9))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    expect(await list(u)).toHaveLength(1);
  });
});
