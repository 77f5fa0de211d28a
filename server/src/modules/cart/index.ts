// What other modules may call in the cart module.
export { mergeCart } from './merge-cart.ts';
