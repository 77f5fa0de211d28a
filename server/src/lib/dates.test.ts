import {
  apiDate, calendarDay, INVALID_DATE_EXAMPLES, isCalendarDay, MAX_DATE_YEAR, MIN_DATE_YEAR, VALID_DATE_EXAMPLES,
} from '@shop/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordLeadActivity } from '../modules/leads/record-lead-activity.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../test/test-app.ts';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

describe('API dates (contracts/src/dates.ts)', () => {
  it('accepts exactly the real calendar days of 2000-2100 (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
      const text = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
      const real = new Date(Date.UTC(y, m - 1, d));
      const exists = m >= 1 && m <= 12 && d >= 1 && real.getUTCMonth() === m - 1 && real.getUTCDate() === d;
      const expected = exists && y >= MIN_DATE_YEAR && y <= MAX_DATE_YEAR;
      expect(calendarDay().safeParse(text).success).toBe(expected);
      expect(apiDate().safeParse(text).success).toBe(expected);
      expect(isCalendarDay(y, m, d)).toBe(exists);
    }), { seed: 21_7, numRuns: 3_000 });
  });

  it('refuses the edge dates with a message and accepts the valid edges', () => {
    for (const v of INVALID_DATE_EXAMPLES) {
      const r = apiDate('Follow-up date').safeParse(v);
      expect(r.success, v).toBe(false);
      expect(r.error?.issues[0]?.message, v).toMatch(/^Follow-up date must be/);
    }
    for (const v of VALID_DATE_EXAMPLES) expect(apiDate().safeParse(v).success, v).toBe(true);
    expect(apiDate().safeParse('2026-05-01T09:30:00Z').success).toBe(true);
    expect(apiDate().safeParse('2026-05-01T09:30:00.123+02:00').success).toBe(true);
    expect(apiDate().safeParse('2026-05-01T09:30:00').success).toBe(false); // no offset: ambiguous
    expect(apiDate().safeParse('2026-02-31T09:30:00Z').success).toBe(false);
    expect(apiDate('D').safeParse('99999-01-01').error?.issues[0]?.message).toBe('D must be a date written YYYY-MM-DD or as an ISO 8601 date-time');
    expect(apiDate('D').safeParse('2026-02-31').error?.issues[0]?.message).toBe('D must be a real calendar date');
    expect(apiDate('D').safeParse('2101-01-01').error?.issues[0]?.message).toBe(`D must be between ${MIN_DATE_YEAR} and ${MAX_DATE_YEAR}`);
    expect(apiDate('D', {}, { allowEmpty: true }).safeParse('').success).toBe(true);
  });
});

describe('date fields over HTTP: 400 with a message, never 500 or a shifted date', () => {
  let t: TestApp;
  let admin: TestUser;
  let leadId: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    const customer = await createUser(t);
    await recordLeadActivity(t.database.db, { userId: customer.id, userName: customer.name, userEmail: customer.email, interestSignal: 'medium', productsOfInterest: [], at: new Date() });
    const leads = await t.app.inject({ method: 'GET', url: '/api/chat/leads', headers: { cookie: admin.cookie } });
    leadId = (leads.json() as { leads: Array<{ _id: string }> }).leads[0]?._id ?? '';
  });
  afterAll(async () => { await t?.close(); });

  it('PUT /api/chat/leads/{id} followUpDate', async () => {
    expect(leadId).not.toBe('');
    const put = (followUpDate: unknown) => t.app.inject({ method: 'PUT', url: `/api/chat/leads/${leadId}`, headers: { cookie: admin.cookie }, payload: { status: 'new', followUpDate } });
    for (const v of ['99999-01-01', '2026-02-31', ...INVALID_DATE_EXAMPLES.filter((x) => x !== '')]) {
      const res = await put(v);
      expect(res.statusCode, v).toBe(400);
      expect((res.json() as { message: string }).message, v).toMatch(/Follow-up date must be/);
    }
    const ok = await put('2026-02-28');
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as { lead: { followUpDate: string } }).lead.followUpDate).toMatch(/^2026-02-28/);
    expect((await put('')).statusCode).toBe(200);
  });

  it('GET /api/orders/summary from/to', async () => {
    for (const v of INVALID_DATE_EXAMPLES.filter((x) => x !== '' && !x.startsWith(' ') && !x.includes('T'))) {
      const res = await t.app.inject({ method: 'GET', url: `/api/orders/summary?from=${encodeURIComponent(v)}`, headers: { cookie: admin.cookie } });
      expect(res.statusCode, v).toBe(400);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/orders/summary?from=2026-01-01&to=2026-01-31', headers: { cookie: admin.cookie } })).statusCode).toBe(200);
  });
});
