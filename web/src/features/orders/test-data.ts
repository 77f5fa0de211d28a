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
