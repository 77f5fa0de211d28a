/**
 * What the per-frame rights check costs a customer's chat message (issue 32, docs/chat.md): the
 * message's INSERT checks the sender's session and role in the same statement. On a scratch
 * PostgreSQL database:
 * - server side, per message: planning + execution of the former INSERT ("old") and of the checked
 *   one ("new"), both prepared as the shop runs them (EXPLAIN ANALYZE EXECUTE, median of 300 after
 *   100 that let PostgreSQL settle on a generic plan, rolled back);
 * - client side, per message, runs alternated: wall and Node CPU of the former Drizzle insert and
 *   of storeMessage with the rights (wall is bound by each commit's WAL flush).
 *
 *   node --import tsx bench/chat-rights.ts      (env: BENCH_DATABASE_URL, ROUNDS, PER)
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { chatConversations, chatMessages, users } from '../server/src/db/schema.ts';
import { startSession } from '../server/src/lib/auth.ts';
import { newId } from '../server/src/lib/ids.ts';
import { createTokenSigner } from '../server/src/lib/tokens.ts';
import { storeMessage } from '../server/src/modules/chat/store-message.ts';

const scratch = await createScratchDatabase(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
await migrate(database);
const db = database.db;
const uid = newId();
await db.insert(users).values({ id: uid, name: 'C', email: 'c@example.com', passwordHash: 'x', isAdmin: false });
const { sessionId } = await startSession(db, { signer: createTokenSigner('x'.repeat(40), 900), refreshTokenTtlDays: 1 }, uid);
await db.insert(chatConversations).values({ id: newId(), userId: uid, userName: 'C', userEmail: 'c@example.com' });
let n = 0;
const COLS = 'id, conversation_id, user_id, sender, sender_id, sender_name, sender_email, recipient_id, content, client_id, created_at, fallback';
const OLD = `insert into chat_messages (${COLS}) values ($1, (select id from chat_conversations limit 1), $2, 'user', $2, 'C', 'c@example.com', null, 'Hello there, do you ship to Canada?', $3, now(), false) on conflict do nothing returning *`;
const NEW = `insert into chat_messages (${COLS}) select ${COLS} from (values ($1::char(24), (select id from chat_conversations limit 1), $2::text, 'user'::text, $2::text, 'C'::text, 'c@example.com'::text, null::text,
  'Hello there, do you ship to Canada?'::text, $3::text, now(), false, $4::char(24), $2::char(24), false)) as v(${COLS}, rights_session, rights_user, rights_admin)
  where v.rights_session is null or exists (select 1 from sessions s inner join users u on u.id = s.user_id
    where s.id = v.rights_session and s.user_id = v.rights_user and s.revoked_at is null and s.expires_at > now() and u.is_admin = v.rights_admin)
  on conflict do nothing returning *`;
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
async function server(form: 'old' | 'new') {
  const plan: number[] = []; const exec: number[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`prepare q_${form}(text, text, text${form === 'new' ? ', text' : ''}) as ${form === 'old' ? OLD : NEW}`));
    for (let i = 0; i < 400; i += 1) {
      const args = [`'${newId()}'`, `'${uid}'`, `'s${(n += 1)}'`, ...(form === 'new' ? [`'${sessionId}'`] : [])].join(', ');
      const { rows } = (await tx.execute(sql.raw(`explain (analyze, format json) execute q_${form}(${args})`))) as unknown as { rows: Array<{ 'QUERY PLAN': Array<{ 'Execution Time': number; 'Planning Time': number }> }> };
      const p = rows[0]!['QUERY PLAN'][0]!;
      if (i >= 100) { plan.push(p['Planning Time']); exec.push(p['Execution Time']); }
    }
    tx.rollback();
  }).catch(() => undefined);
  return `planning ${med(plan).toFixed(3)} ms + execution ${med(exec).toFixed(3)} ms`;
}
console.info(`server, prepared, median of 300 after 100: old ${await server('old')}; new ${await server('new')}`);

const row = () => ({ id: newId(), conversationId: '', userId: uid, sender: 'user' as const, senderId: uid, senderName: 'C', senderEmail: 'c@example.com', recipientId: null, content: 'Hello there, do you ship to Canada?', clientId: `c${(n += 1)}`, createdAt: new Date() });
const [conv] = await db.select({ id: chatConversations.id }).from(chatConversations).limit(1);
async function oldInsert() { await db.insert(chatMessages).values({ ...row(), conversationId: conv!.id }).onConflictDoNothing().returning(); }
const owner = { id: uid, name: 'C', email: 'c@example.com', isGuest: false };
async function newInsert() {
  await storeMessage(db, { conversationOwner: owner, sender: 'user', senderId: uid, senderName: 'C', senderEmail: 'c@example.com', content: 'Hello there, do you ship to Canada?', clientId: `c${(n += 1)}`, rights: { sessionId, userId: uid, isAdmin: false } });
}
const ROUNDS = Number(process.env.ROUNDS ?? 6), PER = Number(process.env.PER ?? 300);
const t = { old: [] as number[], new: [] as number[] }; const cpu = { old: 0, new: 0 };
for (let i = 0; i < 100; i += 1) { await oldInsert(); await newInsert(); }
for (let r = 0; r < ROUNDS; r += 1) {
  for (const [k, fn] of (r % 2 ? [['new', newInsert], ['old', oldInsert]] : [['old', oldInsert], ['new', newInsert]]) as Array<['old' | 'new', () => Promise<void>]>) {
    const c0 = process.cpuUsage(); const t0 = performance.now();
    for (let i = 0; i < PER; i += 1) await fn();
    t[k].push((performance.now() - t0) / PER); const c = process.cpuUsage(c0); cpu[k] += (c.user + c.system) / 1000;
  }
}
console.info(`client, per message, median of ${ROUNDS} rounds of ${PER}: wall old ${med(t.old).toFixed(3)} ms / new ${med(t.new).toFixed(3)} ms; Node CPU old ${(cpu.old / (ROUNDS * PER)).toFixed(3)} ms / new ${(cpu.new / (ROUNDS * PER)).toFixed(3)} ms`);
await database.close();
await scratch.drop();
