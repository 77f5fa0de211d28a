import type { AdminUser } from '@shop/contracts';

/** The admin view of a user. An explicit field list: no hash, token or session data can leave. */
export function presentAdminUser(row: { id: string; name: string; email: string; isAdmin: boolean; createdAt: Date; numOrders: number }): AdminUser {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    isAdmin: row.isAdmin,
    createdAt: row.createdAt.toISOString(),
    numOrders: Number(row.numOrders),
  };
}
