// The one Drizzle schema. Each domain keeps its tables in schema/<domain>.ts.
export * from './schema/users.ts';
export * from './schema/products.ts';
export * from './schema/commerce.ts';
export * from './schema/leads.ts';
export * from './schema/uploads.ts';
export * from './schema/jobs.ts';
export * from './schema/supplier.ts';
export * from './schema/backoffice.ts';
export * from './schema/storefront.ts';
export * from './schema/chat.ts';
export * from './schema/pages.ts';
export * from './schema/idempotency.ts';
export * from './schema/discounts.ts';
export * from './schema/shipping.ts';
