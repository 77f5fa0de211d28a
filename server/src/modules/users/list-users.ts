import { USER_MESSAGES, type AdminUser, type ListUsersQuery, type UserListResponse } from '@shop/contracts';
import { desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { orders, users } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { escapeLike } from '../../lib/like.ts';
import { presentAdminUser } from './admin-users.presenter.ts';

const adminUserColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  isAdmin: users.isAdmin,
  createdAt: users.createdAt,
  // Qualified by hand: in a one-table select drizzle renders columns without their table, so
  // `${orders.userId} = ${users.id}` became "user_id" = "id" and compared orders.id (always 0).
  numOrders: sql<number>`(select count(*)::int from ${orders} o where o.user_id = ${users}.id)`,
};

/** Users for the back office, newest first, searched by name or e-mail, one page at a time. */
export async function listUsers(db: Executor, query: ListUsersQuery): Promise<UserListResponse> {
  const term = query.search?.trim();
  let where: SQL | undefined;
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    where = or(ilike(users.name, pattern), ilike(users.email, pattern));
  }
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(where);
  const pages = Math.max(1, Math.ceil(n / query.pageSize));
  const rows = await db.select(adminUserColumns).from(users).where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(query.pageSize).offset((query.page - 1) * query.pageSize);
  return { users: rows.map(presentAdminUser), page: query.page, pages, countUsers: n };
}

/** One user for the back office; unknown or malformed id → 404 'User Not Found'. */
export async function getAdminUser(db: Executor, id: string): Promise<AdminUser> {
  if (!isId(id)) throw notFound(USER_MESSAGES.notFound);
  const [row] = await db.select(adminUserColumns).from(users).where(eq(users.id, id)).limit(1);
  if (!row) throw notFound(USER_MESSAGES.notFound);
  return presentAdminUser(row);
}
