import { like, sql } from 'drizzle-orm';
import { newId } from '../../lib/ids.ts';
import { answerBuiltIn, welcomeGreeting } from '../../modules/chat/assistant/built-in-assistant.ts';
import { createShopTools } from '../../modules/chat/assistant/shop-tools.ts';
import { AI_SENDER } from '../../modules/chat/chat-service.ts';
import type { Db } from '../client.ts';
import { chatConversations, chatMessages, leads } from '../schema.ts';

const MINUTE_MS = 60_000;

/** What each demo guest asked the assistant; `products` are the lead's products of interest. */
function questionFor(userId: string, products: string[]): string | null {
  const [first, second] = products;
  switch (userId) {
    case 'guest_demo_olivia': return first ? `How much is the ${first}?` : null;
    case 'guest_demo_liam': return 'How long does shipping take?';
    case 'guest_demo_emma': return first ? `Is the ${first} in stock?` : null;
    case 'guest_demo_noah': return first && second ? `Compare ${first} and ${second}` : null;
    case 'guest_demo_ava': return first ? `Is there a discount on the ${first}?` : null;
    default: return null;
  }
}

/**
 * Demo conversations for the demo guest leads, so the admin chat history shows something on a
 * first start: the welcome, the guest's question and the built-in assistant's real answer (prices
 * and stock from the seeded catalogue), a few minutes before the lead's last interaction.
 * Runs only while no conversation exists.
 */
export async function seedChats(db: Db): Promise<{ conversations: number; messages: number }> {
  const result = { conversations: 0, messages: 0 };
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(chatConversations);
  if (n > 0) return result;
  const demoLeads = await db.select().from(leads).where(like(leads.userId, 'guest\\_demo\\_%'));
  const tools = createShopTools(db);
  const ai = { sender: 'ai' as const, ...AI_SENDER };
  for (const lead of demoLeads) {
    const question = questionFor(lead.userId, (lead.productsOfInterest ?? []).map((p) => p.name));
    if (!question) continue;
    const answer = await answerBuiltIn(tools, { id: lead.userId, name: lead.userName, isGuest: true, isSignedIn: false }, question);
    const at = lead.lastInteraction.getTime() - 3 * MINUTE_MS;
    const guest = { sender: 'user' as const, senderId: lead.userId, senderName: lead.userName, senderEmail: lead.userEmail };
    const conversationId = newId(at);
    const base = { conversationId, userId: lead.userId };
    await db.transaction(async (tx) => {
      await tx.insert(chatConversations).values({
        id: conversationId, userId: lead.userId, userName: lead.userName, userEmail: lead.userEmail, isGuest: true,
        lastActivity: new Date(at + 2 * MINUTE_MS), createdAt: new Date(at),
      });
      await tx.insert(chatMessages).values([
        { ...base, ...ai, id: newId(at), recipientId: lead.userId, content: welcomeGreeting(lead.userName), clientId: `welcome:${lead.userId}`, createdAt: new Date(at) },
        { ...base, ...guest, id: newId(at + MINUTE_MS), content: question, clientId: `demo:${lead.userId}`, createdAt: new Date(at + MINUTE_MS) },
        { ...base, ...ai, id: newId(at + 2 * MINUTE_MS), recipientId: lead.userId, content: answer.text, clientId: `ai:demo:${lead.userId}`, createdAt: new Date(at + 2 * MINUTE_MS) },
      ]);
    });
    result.conversations += 1;
    result.messages += 3;
  }
  return result;
}
