import { USER_MESSAGES, type AdminUpdateUserBody, type AdminUser } from '@shop/contracts';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { emailChangedByAdminMail } from './account-mails.ts';
import { cancelPendingEmailChanges } from './update-profile.ts';
import { getAdminUser } from './list-users.ts';
import { isEmailTakenByOther, isUniqueViolation } from './users.queries.ts';

/** Locks every administrator row and answers how many there are (serialises the last-admin rule). */
async function lockAdmins(tx: Executor): Promise<string[]> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).orderBy(users.id).for('update');
  return rows.map((r) => r.id);
}

/**
 * Updates a user's name, e-mail and admin flag (admin). An administrator cannot demote themselves
 * and the last administrator cannot be demoted (409, nothing changes). Admin rights are read from
 * the database on every request, so a demotion takes effect on the next one.
 *
 * An administrator's change of e-mail takes effect at once (staff act on a request they checked,
 * often because the customer lost the old mailbox, which could confirm nothing), and the former
 * address is told (`notify`), with a way to reach the shop. Reset links sent to the former address
 * are voided and a change the customer had pending is cancelled.
 */
export async function updateUserAsAdmin(
  db: Db, actorId: string, id: string, body: AdminUpdateUserBody, notify?: { mailer: Mailer; siteUrl: string },
): Promise<AdminUser> {
  if (!isId(id)) throw notFound(USER_MESSAGES.notFound);
  let emailChanged: { name: string; from: string; to: string } | null = null;
  try {
    await db.transaction(async (tx) => {
      const admins = await lockAdmins(tx);
      const [row] = await tx.select({ id: users.id, isAdmin: users.isAdmin, email: users.email }).from(users).where(eq(users.id, id)).for('update');
      if (!row) throw notFound(USER_MESSAGES.notFound);
      if (row.isAdmin && !body.isAdmin) {
        if (id === actorId) throw conflict(USER_MESSAGES.cannotDemoteSelf);
        if (admins.length <= 1) throw conflict(USER_MESSAGES.lastAdmin);
      }
      if (await isEmailTakenByOther(tx, body.email, id)) throw conflict(USER_MESSAGES.emailInUse, { email: USER_MESSAGES.emailInUse });
      const now = new Date();
      await tx.update(users).set({ name: body.name, email: body.email, isAdmin: body.isAdmin, updatedAt: now }).where(eq(users.id, id));
      if (row.email.toLowerCase() !== body.email.toLowerCase()) {
        emailChanged = { name: body.name, from: row.email, to: body.email };
        await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, id), isNull(passwordResets.usedAt)));
        await cancelPendingEmailChanges(tx, id, now);
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(USER_MESSAGES.emailInUse, { email: USER_MESSAGES.emailInUse });
    throw err;
  }
  const changed = emailChanged as { name: string; from: string; to: string } | null;
  if (changed && notify) await notify.mailer.send(emailChangedByAdminMail(changed.from, changed.name, changed.to, notify.siteUrl));
  return getAdminUser(db, id);
}

/**
 * Deletes a user (admin). Their sessions, refresh tokens, cart and addresses go with the row
 * (foreign keys cascade), so they are signed out at once; their orders stay, without a customer.
 */
export async function deleteUserAsAdmin(db: Db, actorId: string, id: string): Promise<void> {
  if (!isId(id)) throw notFound(USER_MESSAGES.notFound);
  if (id === actorId) {
    const [exists] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
    if (!exists) throw notFound(USER_MESSAGES.notFound);
    throw conflict(USER_MESSAGES.cannotDeleteSelf);
  }
  await db.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const [row] = await tx.select({ id: users.id, isAdmin: users.isAdmin }).from(users).where(eq(users.id, id)).for('update');
    if (!row) throw notFound(USER_MESSAGES.notFound);
    if (row.isAdmin && admins.length <= 1) throw conflict(USER_MESSAGES.lastAdmin);
    await tx.delete(users).where(and(eq(users.id, id), ne(users.id, actorId)));
  });
}

/** Accounts created up to `before` (the users card). */
export async function countUsers(db: Executor, before?: Date): Promise<number> {
  const q = db.select({ n: sql<number>`count(*)::int` }).from(users);
  const [row] = before ? await q.where(sql`${users.createdAt} < ${before.toISOString()}::timestamptz`) : await q;
  return row?.n ?? 0;
}
