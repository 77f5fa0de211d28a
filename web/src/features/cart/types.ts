import type { Cart } from '@shop/contracts';

/** A cart as the server returns it: every line with live price (sale applied) and stock, plus notices. */
export type ServerCart = Cart;
