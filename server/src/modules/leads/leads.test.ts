import { LEAD_MESSAGES, type Lead, type LeadListResponse } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.ts';
import { call } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { recordLeadActivity } from './record-lead-activity.ts';

const p = (n: number) => ({ productId: `${n}`.padStart(24, 'a'), name: `Product ${n}` });

describe('leads API', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    customer = await createUser(t);
    const base = Date.parse('2026-05-01T10:00:00Z');
    await recordLeadActivity(t.database.db, { userId: 'guest_anna', userName: 'Anna Guest', userEmail: 'anna@example.com', interestSignal: 'high', productsOfInterest: [p(1), p(2)], at: new Date(base) });
    await recordLeadActivity(t.database.db, { userId: customer.id, userName: 'Bob Buyer', userEmail: 'bob@example.com', interestSignal: 'medium', productsOfInterest: [p(1)], at: new Date(base + 60_000) });
    await recordLeadActivity(t.database.db, { userId: 'guest_cleo', userName: 'Cleo', userEmail: 'cleo@example.com', productsOfInterest: [p(1), p(3)], at: new Date(base + 120_000) });
  });
  afterAll(async () => { await t.close(); });

  it('answers 401 anonymous and 403 customers', async () => {
    expect((await call(t, null, 'GET', '/api/chat/leads')).status).toBe(401);
    expect((await call(t, customer, 'GET', '/api/chat/leads')).status).toBe(403);
    expect((await call(t, null, 'PUT', `/api/chat/leads/${newId()}`, { status: 'lost' })).status).toBe(401);
    expect((await call(t, customer, 'PUT', `/api/chat/leads/${newId()}`, { status: 'lost' })).status).toBe(403);
  });

  it('lists newest interaction first with statistics, guests marked', async () => {
    const res = await call<LeadListResponse>(t, admin, 'GET', '/api/chat/leads');
    expect(res.status).toBe(200);
    expect(res.body.leads.map((l) => [l.userName, l.isGuest])).toEqual([['Cleo', true], ['Bob Buyer', false], ['Anna Guest', true]]);
    expect(res.body.stats).toEqual({
      total: 3,
      byStatus: { new: 3, contacted: 0, qualified: 0, converted: 0, lost: 0 },
      byInterest: { high: 1, medium: 1, low: 1 },
      topProducts: [{ productId: p(1).productId, name: 'Product 1', count: 3 }, { productId: p(2).productId, name: 'Product 2', count: 1 }, { productId: p(3).productId, name: 'Product 3', count: 1 }],
    });
  });

  it('filters by status and interest, searches, pages', async () => {
    const high = await call<LeadListResponse>(t, admin, 'GET', '/api/chat/leads?interest=high');
    expect(high.body.leads.map((l) => l.userName)).toEqual(['Anna Guest']);
    const search = await call<LeadListResponse>(t, admin, 'GET', '/api/chat/leads?search=BOB%40');
    expect(search.body.leads.map((l) => l.userName)).toEqual(['Bob Buyer']);
    const paged = await call<LeadListResponse>(t, admin, 'GET', '/api/chat/leads?pageSize=2&page=2');
    expect(paged.body).toMatchObject({ page: 2, pages: 2, countLeads: 3 });
    expect(paged.body.leads).toHaveLength(1);
    const bad = await call<{ message: string }>(t, admin, 'GET', '/api/chat/leads?status=hot');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Status must be one of/);
  });

  it('updates status, notes, follow-up date and the dialog details; any status to any status', async () => {
    const list = await call<LeadListResponse>(t, admin, 'GET', '/api/chat/leads?search=cleo');
    const id = list.body.leads[0]!._id;
    const res = await call<{ message: string; lead: Lead }>(t, admin, 'PUT', `/api/chat/leads/${id}`, {
      status: 'converted', notes: 'Bought the bundle', followUpDate: '2026-06-01', contactMethod: 'phone',
      conversionDetails: 'Bundle of 3', revenueAmount: '149.99', nextSteps: '',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(LEAD_MESSAGES.updated);
    expect(res.body.lead).toMatchObject({
      status: 'converted', notes: 'Bought the bundle', followUpDate: '2026-06-01T00:00:00.000Z', contactMethod: 'phone',
      conversionDetails: 'Bundle of 3', revenueAmount: 149.99, nextSteps: null,
    });
    const back = await call<{ lead: Lead }>(t, admin, 'PUT', `/api/chat/leads/${id}`, { status: 'new', followUpDate: null });
    expect(back.body.lead).toMatchObject({ status: 'new', notes: 'Bought the bundle', followUpDate: null, contactMethod: 'phone' });
    const stats = await call<LeadListResponse>(t, admin, 'GET', '/api/chat/leads?status=new');
    expect(stats.body.countLeads).toBe(3);
  });

  it('rejects bad updates with a clear 400 and unknown leads with 404', async () => {
    const [lead] = (await call<LeadListResponse>(t, admin, 'GET', '/api/chat/leads')).body.leads;
    const cases: Array<[unknown, RegExp]> = [
      [{ status: 'hot' }, /Status must be one of/],
      [{}, /Status must be one of/],
      [{ status: 'lost', notes: 'x'.repeat(2001) }, /Notes must be at most 2000 characters/],
      [{ status: 'lost', followUpDate: 'not a date' }, /Follow-up date must be a valid date/],
      [{ status: 'lost', revenueAmount: -5 }, /Revenue amount must be 0 or more/],
      [{ status: 'lost', revenueAmount: '149.999' }, /Revenue amount must have at most 2 decimal places/],
      [{ status: 'lost', revenueAmount: '0x10' }, /Revenue amount must be a number written like 19.99/],
    ];
    for (const [body, message] of cases) {
      const res = await call<{ message: string }>(t, admin, 'PUT', `/api/chat/leads/${lead!._id}`, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    const missing = await call<{ message: string }>(t, admin, 'PUT', `/api/chat/leads/${newId()}`, { status: 'lost' });
    expect(missing).toMatchObject({ status: 404, body: { message: LEAD_MESSAGES.notFound } });
  });
});
