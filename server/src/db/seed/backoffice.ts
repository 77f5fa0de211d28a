import { asc, eq, sql } from 'drizzle-orm';
import { newId } from '../../lib/ids.ts';
import type { Db } from '../client.ts';
import { leads, orderEvents, orderItems, orders, products, users } from '../schema.ts';

const DAY_MS = 86_400_000;
const DEMO_SALES_DAYS = 90;

/** A small deterministic generator, so every first start shows the same demo dashboard. */
function seeded(seed: number) {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
}

/**
 * Demo back-office data for an empty database: paid demo orders over the last 90 days (the sales
 * chart and cards) and a handful of leads (the leads table). Each part checks its own table.
 */
export async function seedBackoffice(db: Db, now = new Date()): Promise<{ orders: number; leads: number }> {
  const result = { orders: 0, leads: 0 };
  const catalogue = await db.select({ id: products.id, name: products.name, slug: products.slug, image: products.image, price: products.finalPrice })
    .from(products).where(eq(products.isDraft, false)).orderBy(asc(products.id)).limit(12);
  const [customer] = await db.select({ id: users.id, name: users.name, email: users.email }).from(users)
    .where(eq(users.isAdmin, false)).orderBy(asc(users.createdAt)).limit(1);

  const [{ n: orderCount } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(orders);
  if (orderCount === 0 && catalogue.length > 0) {
    const random = seeded(42);
    const orderRows: Array<typeof orders.$inferInsert> = [];
    const itemRows: Array<typeof orderItems.$inferInsert> = [];
    const eventRows: Array<typeof orderEvents.$inferInsert> = [];
    for (let day = DEMO_SALES_DAYS - 1; day >= 0; day -= 1) {
      const perDay = Math.floor(random() * 3); // 0–2 orders a day, some days without a sale
      for (let k = 0; k < perDay; k += 1) {
        const at = new Date(now.getTime() - day * DAY_MS - Math.floor(random() * 8) * 3_600_000);
        const product = catalogue[Math.floor(random() * catalogue.length)]!;
        const quantity = 1 + Math.floor(random() * 2);
        const total = Math.round(Number(product.price) * quantity * 100) / 100;
        const id = newId(at.getTime());
        orderRows.push({
          id, userId: customer?.id ?? null, paymentMethod: 'PayPal',
          shippingAddress: { fullName: customer?.name ?? 'Demo Customer', address: '1 Demo Street', city: 'Springfield', postalCode: '12345', country: 'USA' },
          itemsPrice: total, shippingPrice: 0, taxPrice: 0, totalPrice: total,
          isPaid: true, paidAt: at, paymentProvider: 'demo', paymentId: `demo-seed-${id}`,
          isDelivered: day > 7, deliveredAt: day > 7 ? new Date(at.getTime() + 2 * DAY_MS) : null,
          createdAt: at, updatedAt: at,
        });
        itemRows.push({
          id: newId(at.getTime()), orderId: id, productId: product.id, name: product.name, slug: product.slug, image: product.image,
          price: Number(product.price), quantity, position: 0,
        });
        // Their timelines, as the checkout, the payment and the delivery would have written them.
        eventRows.push(
          { id: newId(at.getTime()), orderId: id, type: 'placed', dedupeKey: 'placed', createdAt: at },
          { id: newId(at.getTime()), orderId: id, type: 'paid', data: { provider: 'demo' }, dedupeKey: 'paid', createdAt: at },
          ...(day > 7 ? [{ id: newId(at.getTime() + 2 * DAY_MS), orderId: id, type: 'delivered', createdAt: new Date(at.getTime() + 2 * DAY_MS) }] : []),
        );
      }
    }
    // Two multi-row inserts in one transaction (a few hundred single-row statements took most of this seed).
    if (orderRows.length) {
      await db.transaction(async (tx) => {
        await tx.insert(orders).values(orderRows);
        await tx.insert(orderItems).values(itemRows);
        await tx.insert(orderEvents).values(eventRows);
      });
    }
    result.orders = orderRows.length;
  }

  const [{ n: leadCount } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(leads);
  if (leadCount === 0) {
    const pick = (i: number) => (catalogue[i % Math.max(1, catalogue.length)] ? [{ productId: catalogue[i % catalogue.length]!.id, name: catalogue[i % catalogue.length]!.name }] : []);
    const demo: Array<Omit<typeof leads.$inferInsert, 'id'>> = [
      { userId: 'guest_demo_olivia', userName: 'Olivia Guest', userEmail: 'olivia@example.com', interestLevel: 'high', status: 'new', productsOfInterest: [...pick(0), ...pick(1)] },
      { userId: 'guest_demo_liam', userName: 'Liam Guest', userEmail: 'liam@example.com', interestLevel: 'medium', status: 'contacted', productsOfInterest: pick(2), notes: 'Asked about delivery times', contactMethod: 'email' },
      { userId: 'guest_demo_emma', userName: 'Emma Guest', userEmail: 'emma@example.com', interestLevel: 'low', status: 'new', productsOfInterest: pick(0) },
      { userId: 'guest_demo_noah', userName: 'Noah Guest', userEmail: 'noah@example.com', interestLevel: 'high', status: 'qualified', productsOfInterest: [...pick(3), ...pick(0)], followUpDate: new Date(now.getTime() + 3 * DAY_MS) },
      { userId: 'guest_demo_ava', userName: 'Ava Guest', userEmail: 'ava@example.com', interestLevel: 'medium', status: 'lost', productsOfInterest: pick(4), lossReason: 'Price', lossDetails: 'Found it cheaper elsewhere' },
    ];
    if (customer) demo.push({ userId: customer.id, userName: customer.name, userEmail: customer.email, interestLevel: 'high', status: 'converted', productsOfInterest: pick(1), conversionDetails: 'Ordered after a chat', revenueAmount: 59.99 });
    await db.insert(leads).values(demo.map((l, i) => ({ ...l, id: newId(now.getTime() - i * 3_600_000), lastInteraction: new Date(now.getTime() - i * 3_600_000) })));
    result.leads = demo.length;
  }
  return result;
}
