import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { mergeProductsOfInterest, recordLeadActivity } from './record-lead-activity.ts';

const p = (n: number) => ({ productId: `p${n}`.padEnd(24, '0'), name: `Product ${n}` });

describe('recordLeadActivity', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });
  const leadOf = async (userId: string) => (await t.database.db.select().from(leads).where(eq(leads.userId, userId)))[0];

  it('creates a new, low-interest lead on first contact', async () => {
    await recordLeadActivity(t.database.db, { userId: 'guest_first', userName: 'Gail', userEmail: 'gail@example.com' });
    expect(await leadOf('guest_first')).toMatchObject({
      userName: 'Gail', userEmail: 'gail@example.com', status: 'new', interestLevel: 'low', productsOfInterest: [], notes: '',
    });
  });

  it('keeps the five most recent products, newest first, without duplicates', async () => {
    const userId = 'guest_products';
    await recordLeadActivity(t.database.db, { userId, userName: 'G', userEmail: 'g@example.com', productsOfInterest: [p(1), p(2)] });
    await recordLeadActivity(t.database.db, { userId, userName: 'G', userEmail: 'g@example.com', productsOfInterest: [p(3), p(1)] });
    await recordLeadActivity(t.database.db, { userId, userName: 'G', userEmail: 'g@example.com', productsOfInterest: [p(4), p(5), p(6)] });
    expect((await leadOf(userId))!.productsOfInterest.map((x) => x.name)).toEqual(['Product 4', 'Product 5', 'Product 6', 'Product 3', 'Product 1']);
  });

  it('raises the interest level but never lowers it', async () => {
    const userId = 'guest_interest';
    await recordLeadActivity(t.database.db, { userId, userName: 'I', userEmail: 'i@example.com', interestSignal: 'medium' });
    expect((await leadOf(userId))!.interestLevel).toBe('medium');
    await recordLeadActivity(t.database.db, { userId, userName: 'I', userEmail: 'i@example.com', interestSignal: 'low' });
    expect((await leadOf(userId))!.interestLevel).toBe('medium');
    await recordLeadActivity(t.database.db, { userId, userName: 'I', userEmail: 'i@example.com', interestSignal: 'high' });
    expect((await leadOf(userId))!.interestLevel).toBe('high');
  });

  it("never overwrites the status, notes or follow-up an administrator set", async () => {
    const userId = 'guest_admin_set';
    await recordLeadActivity(t.database.db, { userId, userName: 'A', userEmail: 'a@example.com' });
    const followUp = new Date('2026-12-01T10:00:00Z');
    await t.database.db.update(leads).set({ status: 'qualified', notes: 'Called, wants a quote', followUpDate: followUp }).where(eq(leads.userId, userId));
    const later = new Date(Date.now() + 60_000);
    await recordLeadActivity(t.database.db, { userId, userName: 'A', userEmail: 'a@example.com', interestSignal: 'high', productsOfInterest: [p(9)], at: later });
    expect(await leadOf(userId)).toMatchObject({ status: 'qualified', notes: 'Called, wants a quote', followUpDate: followUp, interestLevel: 'high' });
    expect((await leadOf(userId))!.lastInteraction.getTime()).toBe(later.getTime());
  });

  it('keeps one lead per person when interactions arrive at once', async () => {
    const userId = 'guest_concurrent';
    await Promise.all(Array.from({ length: 8 }, (_, i) =>
      recordLeadActivity(t.database.db, { userId, userName: 'C', userEmail: 'c@example.com', productsOfInterest: [p(i)] })));
    const rows = await t.database.db.select().from(leads).where(eq(leads.userId, userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.productsOfInterest).toHaveLength(5);
  });

  it('mergeProductsOfInterest puts newer first and caps at five', () => {
    expect(mergeProductsOfInterest([p(7)], [p(1), p(7), p(2), p(3), p(4), p(5)]).map((x) => x.productId)).toEqual(
      [p(7), p(1), p(2), p(3), p(4)].map((x) => x.productId));
  });
});
