import type { FastifyBaseLogger } from 'fastify';
import { productsOfInterestIn } from '../chat-leads.ts';
import { answerBuiltIn, type AskingUser, type AssistantAnswer } from './built-in-assistant.ts';
import { answerWithLlm, type LlmConfig } from './llm-client.ts';
import type { ShopTools } from './shop-tools.ts';
import { findHandOff } from './understand.ts';

export type Assistant = (user: AskingUser, text: string) => Promise<AssistantAnswer & { source: 'llm' | 'built-in' }>;

/**
 * The model when LLM_BASE_URL is set, the built-in assistant otherwise, whenever the model fails
 * or times out, and for a hand-off (a person asked for, or an upset shopper). Either way the answer's products (for the lead) are only those the question or the
 * answer named.
 */
export function createAssistant(opts: { tools: ShopTools; llm: LlmConfig | undefined; log: FastifyBaseLogger; fetchImpl?: typeof fetch }): Assistant {
  const named = (text: string, answer: AssistantAnswer) => ({ ...answer, products: productsOfInterestIn(text, answer.text, answer.products) });
  return async (user, text) => {
    // Asking for a person, or upset: the shop's own apology and hand-off (the conversation and the
    // lead are marked), whichever assistant is configured; the built-in one answers the rest.
    if (opts.llm && !findHandOff(text)) {
      try {
        return { ...named(text, await answerWithLlm(opts.llm, opts.tools, user, text, opts.fetchImpl)), source: 'llm' };
      } catch (err) {
        opts.log.warn({ reason: err instanceof Error ? err.message : 'unknown' }, 'chat: model failed, the built-in assistant answers');
      }
    }
    return { ...named(text, await answerBuiltIn(opts.tools, user, text)), source: 'built-in' };
  };
}
