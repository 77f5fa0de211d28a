import {
  ADDRESS_NOT_FOUND_MESSAGE, DISCOUNT_MESSAGES, OUT_OF_STOCK_MESSAGE, ORDER_MESSAGES, type Order, type PlaceOrderBody,
} from '@shop/contracts';
import { getTableColumns, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { jsonValue, readColumns, selectList } from '../../db/raw-rows.ts';
import { addresses, cartItems, orderItems, orders, products, productVariants, users, type OrderShippingAddress } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { MIN_UNIT_PRICE, toCents } from '../../lib/money.ts';
import { cartLineProductColumns, cartVariantColumns, discountLineOf, isLineAvailable, readCartLine, type CartLine } from '../cart/get-cart.ts';
import { checkDiscountForOrder, recordDiscountUse, type OrderDiscount } from '../discounts/index.ts';
import { readShippingSettings, shippingPriceOf, shippingSettingsJson, shippingTerms, type ShippingSettingsRecord, type ShippingTerms } from '../shipping/index.ts';
import { assertNoneDiscontinued } from '../supplier/index.ts';
import type { FreightLine } from '../supplier/freight.ts';
import { loadOrder } from './find-orders.ts';
import { orderEventCte } from './order-events.ts';
import { presentOrder, type OrderItemRow, type OrderRow, type OrderWithLines } from './orders.presenter.ts';

export const TAX_RATE = 0;
/** A second identical order placed this soon after an unpaid one is a double submit: answer the first. */
const DOUBLE_SUBMIT_WINDOW_MS = 10_000;

export interface PlaceOrderInput {
  userId: string;
  body: PlaceOrderBody;
  expiryMinutes: number;
  /**
   * The supplier's freight for the cart's supplier lines to the order's country, without I/O (see
   * order-shipping.ts, which asks the supplier outside the transaction); null or unset: not known,
   * the shop's rate applies to them. Asked only when the shipping settings charge that freight.
   */
  shipping?: (lines: FreightLine[], country: string) => number | null;
  now?: Date;
}

const customerAddressColumns = {
  id: addresses.id, fullName: addresses.fullName, address: addresses.address, city: addresses.city,
  postalCode: addresses.postalCode, country: addresses.country,
};

/**
 * Locks the customer's row (one checkout at a time per customer) and, in the same statement, reads
 * their name (for the answer), the saved address the body names (if any) and the cart lines with
 * their live products, in cart order (findCartLines' shape).
 */
async function lockCustomerAndCart(tx: Tx, userId: string, body: PlaceOrderBody): Promise<{ userName: string | null; shippingAddress: OrderShippingAddress; cart: CartLine[]; settings: ShippingSettingsRecord }> {
  const addressId = body.addressId && isId(body.addressId) ? body.addressId : null;
  const { rows } = (await tx.execute(sql`
    with customer as materialized (
      select u.id, u.name from ${users} u where u.id = ${userId}::char(24) for update of u
    )
    select cu.name as user_name, ${shippingSettingsJson} as shipping_settings, ${sql.raw(selectList(customerAddressColumns, 'a', 'a_'))},
      c.product_id as line_product_id, c.variant_id as line_variant_id, c.quantity as line_quantity, c.name as line_name,
      ${sql.raw(selectList(cartLineProductColumns, 'p', 'p_'))}, ${sql.raw(selectList(cartVariantColumns, 'v', 'v_'))}
    from customer cu
    left join ${addresses} a on a.id = ${addressId}::char(24) and a.user_id = cu.id
    left join ${cartItems} c on c.user_id = cu.id
    left join ${products} p on p.id = c.product_id
    left join ${productVariants} v on v.id::text = c.variant_id and v.product_id = c.product_id
    order by c.created_at, c.product_id, c.variant_id`)) as unknown as { rows: Array<Record<string, unknown>> };
  const first = rows[0];
  const userName = (first?.user_name as string | undefined) ?? null;
  const cart = rows.filter((r) => r.line_product_id !== null).map(readCartLine);
  const settings = readShippingSettings(first?.shipping_settings ? jsonValue<Parameters<typeof readShippingSettings>[0]>(first.shipping_settings) : null);
  if (body.addressId) {
    const a = first && first.a_id !== null ? readColumns<OrderShippingAddress & { id: string }>(customerAddressColumns, first, 'a_') : null;
    if (!a) throw notFound(ADDRESS_NOT_FOUND_MESSAGE);
    return { userName, cart, settings, shippingAddress: { fullName: a.fullName, address: a.address, city: a.city, postalCode: a.postalCode, country: a.country } };
  }
  if (body.shippingAddress) return { userName, cart, settings, shippingAddress: { ...body.shippingAddress } };
  throw badRequest(ORDER_MESSAGES.addressRequired, { shippingAddress: ORDER_MESSAGES.addressRequired });
}

/** `variantId` '' for a product without variants. */
type Line = { productId: string; variantId: string; quantity: number; position: number; itemId: string };
type TakenRow = { id: string; variant_id: string | null; final_price: number | string };
type Placed = { duplicateOf: string | null; taken: TakenRow[]; order: OrderRow | null; items: OrderItemRow[] };

/**
 * The rest of the checkout in one statement, after the customer's lock:
 * - double submit: the customer's latest unpaid order of the last DOUBLE_SUBMIT_WINDOW_MS, if it
 *   has the same lines and address, is answered instead, and nothing is written;
 * - stock: the product rows are locked first, in product id order (the same order everywhere: no
 *   deadlocks), then each is decremented only if it is published and holds enough; under
 *   concurrency the update re-checks each row's latest version, so stock never goes below 0;
 * - the order and its lines are written only when every line was taken at a unit price of at least
 *   MIN_UNIT_PRICE (the products' final_price, the same rule as finalPrice). Otherwise the caller
 *   throws and the transaction rolls the partial stock take back.
 * Prices come from the database, never from the request; sums are exact (numeric).
 */
async function takeStockAndWrite(
  tx: Tx,
  input: {
    orderId: string; userId: string; lines: Line[]; shippingAddress: OrderShippingAddress; paymentMethod: string; shipping: ShippingTerms; now: Date; expiresAt: Date;
    /** A discount code checked for these lines at these prices (itemsPrice): written only if the stock taken costs exactly that. */
    discount: (OrderDiscount & { itemsPrice: number }) | null;
  },
): Promise<Placed> {
  const { lines, shippingAddress: a, now } = input;
  // The shipping settings' terms; whether the order reaches free shipping is decided on the items' exact sum.
  const shipPrice = input.shipping.price.toFixed(2);
  const freeOver = input.shipping.freeOver === null ? null : input.shipping.freeOver.toFixed(2);
  const discountPrice = (input.discount?.amount ?? 0).toFixed(2);
  const expectedItems = input.discount ? input.discount.itemsPrice.toFixed(2) : null;
  const join = (xs: Array<string | number>) => xs.join(',');
  const sig = join(lines.map((l) => `${l.productId}:${l.variantId}:${l.quantity}`));
  const { rows } = (await tx.execute(sql`
    with wanted as materialized (
      select w.id, nullif(w.variant_id, '-')::char(24) as variant_id, w.quantity, w.position, w.item_id
      from unnest(string_to_array(${join(lines.map((l) => l.productId))}, ',')::char(24)[],
                  string_to_array(${join(lines.map((l) => l.variantId || '-'))}, ',')::text[],
                  string_to_array(${join(lines.map((l) => l.quantity))}, ',')::int[],
                  string_to_array(${join(lines.map((l) => l.position))}, ',')::int[],
                  string_to_array(${join(lines.map((l) => l.itemId))}, ',')::char(24)[]) as w(id, variant_id, quantity, position, item_id)
    ), recent as materialized (
      select o.id, o.shipping_address from ${orders} o
      where o.user_id = ${input.userId}::char(24) and not o.is_paid and o.stock_released_at is null
        and o.created_at > ${new Date(now.getTime() - DOUBLE_SUBMIT_WINDOW_MS).toISOString()}::timestamptz
        and o.expires_at > ${now.toISOString()}::timestamptz
      order by o.created_at desc limit 1
    ), duplicate as materialized (
      select r.id from recent r
      where r.shipping_address->>'fullName' is not distinct from ${a.fullName}::text
        and r.shipping_address->>'address' is not distinct from ${a.address}::text
        and r.shipping_address->>'city' is not distinct from ${a.city}::text
        and r.shipping_address->>'postalCode' is not distinct from ${a.postalCode}::text
        and r.shipping_address->>'country' is not distinct from ${a.country}::text
        and (select string_agg(oi.product_id || ':' || coalesce(oi.variant_id::text, '') || ':' || oi.quantity, ',' order by oi.product_id, coalesce(oi.variant_id::text, ''))
             from ${orderItems} oi where oi.order_id = r.id) = ${sig}::text
    ), locked as materialized (
      select p.id from ${products} p
      where p.id in (select id from wanted) and not exists (select 1 from duplicate)
      order by p.id for update of p
    ), taken_p as (
      update ${products} p set count_in_stock = p.count_in_stock - w.quantity
      from wanted w, locked l
      where p.id = w.id and w.variant_id is null and l.id = p.id and not p.is_draft and p.count_in_stock >= w.quantity
        and p.options = '[]'::jsonb -- a product with options sells its variants only
      returning p.id, null::char(24) as variant_id, null::text as vid, null::text as variant_name, p.name, p.slug, p.image, p.final_price, w.quantity, w.position, w.item_id
    ), taken_v as (
      -- A variant line takes the variant's stock, under its product's lock (taken in product id order above).
      update ${productVariants} v set count_in_stock = v.count_in_stock - w.quantity, updated_at = ${now.toISOString()}::timestamptz
      from wanted w, locked l, ${products} p
      where v.id = w.variant_id and v.product_id = w.id and l.id = w.id and p.id = w.id
        and not p.is_draft and v.enabled and v.count_in_stock >= w.quantity
      returning p.id, v.id as variant_id, v.vid, coalesce(nullif(v.variant_key, ''), v.name) as variant_name, p.name, p.slug,
        coalesce(nullif(v.image, ''), p.image) as image,
        round(v.price * (100 - (case when p.is_on_sale then p.sale_discount else 0 end))::numeric / 100, 2) as final_price,
        w.quantity, w.position, w.item_id
    ), main_sync as (
      -- The product's own stock mirrors the variant its listing opens on.
      update ${products} p set count_in_stock = greatest(0, p.count_in_stock - t.quantity)
      from taken_v t where p.id = t.id and t.vid = (p.cj_data ->> 'vid')
    ), own_sync as (
      -- An own product with options: its stock is the sum of its variants on sale (issue 34).
      update ${products} p set count_in_stock = greatest(0, p.count_in_stock - t.quantity)
      from (select id, sum(quantity)::int as quantity from taken_v group by id) t where p.id = t.id and p.cj_data is null
    ), taken as (
      select * from taken_p union all select * from taken_v
    ), sums as materialized (
      select coalesce(sum(t.final_price * t.quantity), 0)::numeric(12, 2) as items, count(*) as n,
             coalesce(bool_and(t.final_price >= ${MIN_UNIT_PRICE}::numeric), true) as priced
      from taken t
    ), totals as materialized (
      select s.*, (case when ${freeOver}::numeric is not null and s.items >= ${freeOver}::numeric then 0 else ${shipPrice}::numeric end)::numeric(12, 2) as shipping
      from sums s
    ), placed as (
      insert into ${orders} (id, user_id, shipping_address, payment_method, items_price, shipping_price, tax_price, total_price,
                             currency, expires_at, created_at, updated_at, discount_code, discount_price)
      select ${input.orderId}::char(24), ${input.userId}::char(24), ${JSON.stringify(a)}::jsonb, ${input.paymentMethod}::text,
             t.items, t.shipping, round(t.items * ${TAX_RATE}::numeric, 2),
             t.items - ${discountPrice}::numeric + t.shipping + round(t.items * ${TAX_RATE}::numeric, 2),
             'USD', ${input.expiresAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz,
             ${input.discount?.code ?? null}::text, ${discountPrice}::numeric
      from totals t where t.n = ${lines.length}::int and t.priced
        and (${expectedItems}::numeric is null or t.items = ${expectedItems}::numeric)
      returning *
    ), written as (
      insert into ${orderItems} (id, order_id, product_id, name, slug, image, price, quantity, position, variant_id, variant_name)
      select t.item_id, o.id, t.id, t.name, t.slug, t.image, t.final_price, t.quantity, t.position, t.variant_id, t.variant_name
      from taken t cross join placed o
      returning *
    ), ${orderEventCte('placed_event', 'placed', { type: 'placed', at: now })}
    select (select id from duplicate) as duplicate_of,
      (select coalesce(json_agg(json_build_object('id', t.id, 'variant_id', t.variant_id, 'final_price', t.final_price)), '[]') from taken t) as taken,
      (select row_to_json(o) from placed o) as "order",
      (select coalesce(json_agg(i order by i.position, i.id), '[]') from written i) as items`)) as unknown as { rows: Array<Record<string, unknown>> };
  const row = rows[0]!;
  const order = jsonValue<Record<string, unknown> | null>(row.order);
  return {
    duplicateOf: (row.duplicate_of as string | null) ?? null,
    taken: jsonValue<TakenRow[]>(row.taken),
    order: order ? readColumns<OrderRow>(getTableColumns(orders), order, '') : null,
    items: jsonValue<Array<Record<string, unknown>>>(row.items).map((i) => readColumns<OrderItemRow>(getTableColumns(orderItems), i, '')),
  };
}

/**
 * The customer's unpaid order of the last DOUBLE_SUBMIT_WINDOW_MS placed with this code, the same
 * address and the same lines (takeStockAndWrite's double-submit rule, for an order whose code the
 * first submit has used up), or null.
 */
async function findDiscountedDoubleSubmit(
  tx: Tx, input: { userId: string; lines: Line[]; shippingAddress: OrderShippingAddress; code: string; now: Date },
): Promise<string | null> {
  // The lines come sorted as the order's statement sorts them (product id, then variant id).
  const sig = input.lines.map((l) => `${l.productId}:${l.variantId}:${l.quantity}`).join(',');
  const { rows } = (await tx.execute(sql`
    select o.id from ${orders} o
    where o.user_id = ${input.userId}::char(24) and not o.is_paid and o.stock_released_at is null
      and o.created_at > ${new Date(input.now.getTime() - DOUBLE_SUBMIT_WINDOW_MS).toISOString()}::timestamptz
      and o.expires_at > ${input.now.toISOString()}::timestamptz
      and lower(o.discount_code) = lower(${input.code.trim()}) and o.shipping_address = ${JSON.stringify(input.shippingAddress)}::jsonb
      and (select string_agg(oi.product_id || ':' || coalesce(oi.variant_id::text, '') || ':' || oi.quantity, ',' order by oi.product_id, coalesce(oi.variant_id::text, ''))
           from ${orderItems} oi where oi.order_id = o.id) = ${sig}::text
    order by o.created_at desc limit 1`)) as unknown as { rows: Array<{ id: string }> };
  return rows[0]?.id ?? null;
}

/**
 * Places an order from the user's server cart. Prices come from the database (final_price), never
 * from the request; stock is taken with a conditional update in the same transaction, so no number
 * of concurrent orders can take more than exists. The cart is kept until the order is paid.
 */
export async function placeOrder(db: Db, input: PlaceOrderInput): Promise<{ order: Order; created: boolean }> {
  const now = input.now ?? new Date();
  const { userId, body } = input;
  const result = await db.transaction(async (tx): Promise<{ created: false; orderId: string } | { created: true; placed: OrderWithLines }> => {
    const { userName, shippingAddress, cart, settings } = await lockCustomerAndCart(tx, userId, body);
    if (!cart.length) throw badRequest(ORDER_MESSAGES.cartEmpty, undefined, 'CART_EMPTY');
    if (cart.some((l) => !isLineAvailable(l))) throw badRequest(ORDER_MESSAGES.productsUnavailable, undefined, 'CART_CHANGED');
    assertNoneDiscontinued(cart.map((l) => ({ name: l.product!.name, supplierDiscontinuedAt: l.supplierDiscontinuedAt, supplierBelowCostAt: l.supplierBelowCostAt })));

    // Sorted by product id: every transaction locks product rows in the same order.
    const freightLines = cart.filter((l) => l.product?.cjData != null && l.variant).map((l) => ({ vid: l.variant!.vid, quantity: l.quantity }));
    const charging = settings.supplierFreight === 'charge' && freightLines.length > 0;
    const shipping = shippingTerms(settings, {
      country: shippingAddress.country, hasOwnLines: cart.some((l) => l.product?.cjData == null), hasSupplierLines: freightLines.length > 0,
      freight: charging && input.shipping ? input.shipping(freightLines, shippingAddress.country) : null,
    });
    const orderId = newId(now.getTime());
    const lines: Line[] = cart.map((l, position) => ({ productId: l.productId, variantId: l.variantId, quantity: l.quantity, position, itemId: newId(now.getTime()) }))
      .sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : a.variantId < b.variantId ? -1 : 1));
    // A discount code is checked again here, under its row's lock, from the database's prices (issue 34.1).
    const discountLines = body.discountCode ? cart.map((l) => discountLineOf(l)) : [];
    const itemsPrice = discountLines.reduce((sum, l) => sum + toCents(l.unitPrice) * l.quantity, 0) / 100;
    let discount: OrderDiscount | null = null;
    if (body.discountCode) {
      // The shipping these items pay (a free-shipping code takes it off); the statement checks they cost itemsPrice.
      const shippingPrice = shippingPriceOf(shipping, itemsPrice);
      try {
        discount = await checkDiscountForOrder(tx, { code: body.discountCode, userId, lines: discountLines, shippingPrice, now });
      } catch (refusal) {
        // The second of a double submit finds the code used by the first: it is answered the first order.
        const first = await findDiscountedDoubleSubmit(tx, { userId, lines, shippingAddress, code: body.discountCode, now });
        if (first) return { orderId: first, created: false };
        throw refusal;
      }
    }
    const placed = await takeStockAndWrite(tx, {
      orderId, userId, lines, shippingAddress, paymentMethod: body.paymentMethod, now,
      shipping,
      expiresAt: new Date(now.getTime() + input.expiryMinutes * 60_000),
      discount: discount && { ...discount, itemsPrice },
    });
    if (placed.duplicateOf) return { orderId: placed.duplicateOf, created: false };
    if (discount && placed.order) await recordDiscountUse(tx, { orderId, discountId: discount.discountId, userId, at: now });
    if (!placed.order) {
      // Nothing written: the first line (in product id order) that could not be served says why;
      // throwing rolls back the stock taken for the others.
      const taken = new Map(placed.taken.map((t) => [`${t.id.trim()}:${t.variant_id?.trim() ?? ''}`, Number(t.final_price)]));
      for (const line of lines) {
        const unitPrice = taken.get(`${line.productId.trim()}:${line.variantId}`);
        if (unitPrice === undefined) throw badRequest(OUT_OF_STOCK_MESSAGE, undefined, 'OUT_OF_STOCK');
        // Never a free line, whatever the catalogue holds (the database refuses such a published product too).
        if (!(unitPrice >= MIN_UNIT_PRICE)) throw badRequest(ORDER_MESSAGES.productsUnavailable, undefined, 'CART_CHANGED');
      }
      // A price changed between the discount's check and the stock's lock: the discount was worked out on other prices.
      if (discount) throw badRequest(DISCOUNT_MESSAGES.pricesChanged, undefined, 'CART_CHANGED');
      throw new Error(`order ${orderId} was not written though every line was served`);
    }
    return { created: true, placed: { order: placed.order, userName, items: placed.items, hasSupplierLines: cart.some((l) => l.product?.cjData != null) } };
  });
  if (result.created) return { order: presentOrder(result.placed), created: true };
  const found = await loadOrder(db, result.orderId);
  if (!found) throw new Error(`order ${result.orderId} vanished after creation`);
  return { order: presentOrder(found), created: false };
}
