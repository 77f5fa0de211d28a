export * from './common.ts';
export * from './users.ts';
export * from './products.ts';
