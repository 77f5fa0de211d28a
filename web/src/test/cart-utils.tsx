/* Test helpers of the cart, checkout, orders, dashboard and users tests (not part of the app bundle); the general ones are in ./render. */
import type { Product, User } from '@shop/contracts';
import type { ReactElement } from 'react';
import { DEFAULT_PAYMENT_METHOD, type CartItem, type StoreState } from '../lib/store';
import { makeState as makeStoreState, renderWithProviders as renderShared, type RenderOptions } from './render';

export function makeProduct(overrides: Partial<Product> = {}): Product {
  return {
    _id: '111111111111111111111111',
    name: 'Blue Mug',
    slug: 'blue-mug',
    price: 10,
    finalPrice: 9,
    image: '/images/mug.jpg',
    images: [],
    category: 'Kitchen',
    brand: 'Acme',
    countInStock: 5,
    description: 'A mug',
    rating: 4,
    numReviews: 1,
    isTodaysDeal: false,
    isGift: false,
    isOnSale: true,
    saleDiscount: 10,
    cjData: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeCartItem(overrides: Partial<CartItem> = {}): CartItem {
  return {
    _id: '111111111111111111111111',
    name: 'Blue Mug',
    slug: 'blue-mug',
    image: '/images/mug.jpg',
    price: 9,
    countInStock: 5,
    quantity: 1,
    isOnSale: true,
    saleDiscount: 10,
    isTodaysDeal: false,
    isGift: false,
    cjData: null,
    ...overrides,
  };
}

/** A store with the given user, cart lines and shipping address; everything else as in src/test/render's makeState. */
export function makeState(overrides: { userInfo?: User | null; cartItems?: CartItem[]; shippingAddress?: StoreState['cart']['shippingAddress'] } = {}): StoreState {
  return makeStoreState({
    userInfo: overrides.userInfo ?? null,
    cart: { cartItems: overrides.cartItems ?? [], shippingAddress: overrides.shippingAddress ?? null, paymentMethod: DEFAULT_PAYMENT_METHOD },
  });
}

/** renderWithProviders from src/test/render without the toast container: these tests mock react-toastify. */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  return renderShared(ui, { toasts: false, ...options });
}
