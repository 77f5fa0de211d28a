export * from './common.ts';
export * from './constants.ts';
export * from './images.ts';
export * from './users.ts';
export * from './products.ts';
export * from './cart.ts';
export * from './addresses.ts';
export * from './orders.ts';
