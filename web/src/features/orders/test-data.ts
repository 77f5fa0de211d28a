import type { Order } from '@shop/contracts';

export function makeOrder(overrides: Partial<Order> = {}): Order {
  return {
    _id: 'cccccccccccccccccccccccc',
    number: 1001,
    orderItems: [{ _id: '111111111111111111111111', name: 'Blue Mug', slug: 'blue-mug', image: '/m.jpg', price: 9, quantity: 2, product: '111111111111111111111111' }],
    shippingAddress: { fullName: 'Jane Customer', address: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'USA' },
    paymentMethod: 'PayPal',
    itemsPrice: 18,
    shippingPrice: 0,
    taxPrice: 0,
    totalPrice: 18,
    currency: 'USD',
    isPaid: false,
    paidAt: null,
    paymentResult: null,
    isDelivered: false,
    deliveredAt: null,
    createdAt: '2025-03-09T18:45:00.000Z',
    user: { _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'Jane Customer' },
    expiresAt: '2025-03-09T19:15:00.000Z',
    isExpired: false,
    status: 'unpaid',
    refundedAmount: 0,
    cancelledAt: null,
    ...overrides,
  };
}

export const MUG_LINE = '111111111111111111111111';
export const TEE_LINE = '222222222222222222222222';

/**
 * A paid demo order of two lines: 2 × Blue Mug at $9 (not shipped) and 1 × Red Tee at $20 (a supplier
 * line already shipped), $5 shipping: $43 paid.
 */
export function makePaidOrder(overrides: Partial<Order> = {}): Order {
  return makeOrder({
    orderItems: [
      { _id: MUG_LINE, name: 'Blue Mug', slug: 'blue-mug', image: '/m.jpg', price: 9, quantity: 2, product: MUG_LINE, refundedQuantity: 0, shipped: false },
      { _id: TEE_LINE, name: 'Red Tee', slug: 'red-tee', image: '/t.jpg', price: 20, quantity: 1, product: TEE_LINE, variantId: '333333333333333333333333', variantName: 'M', refundedQuantity: 0, shipped: true },
    ],
    itemsPrice: 38,
    shippingPrice: 5,
    totalPrice: 43,
    isPaid: true,
    paidAt: '2025-03-09T18:50:00.000Z',
    paymentResult: { provider: 'demo', id: 'demo-1', status: 'COMPLETED', emailAddress: null, updateTime: '2025-03-09T18:50:00.000Z' },
    expiresAt: null,
    status: 'paid',
    refunds: [],
    events: [],
    ...overrides,
  });
}
