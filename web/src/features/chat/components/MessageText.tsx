import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { LINK_TEXT_MAX, splitAssistantMessage, splitMessage } from './message-parts';

const shorten = (text: string) => (text.length > LINK_TEXT_MAX ? `${text.slice(0, LINK_TEXT_MAX - 1)}…` : text);

/**
 * A chat message's text: http/https addresses become links that open in a new tab without giving
 * the page access to the opener or passing ranking (`noopener noreferrer nofollow`); everything
 * else is React text, so markup in a message stays inert. In the assistant's own messages
 * (`fromAssistant`: sender 'ai', set by the server), `[Name](/product/slug)` is a link to that
 * product's page in the app; in a customer's or an administrator's message it stays text.
 */
export function MessageText({ content, linkClassName, fromAssistant = false }: { content: string; linkClassName?: string; fromAssistant?: boolean }) {
  const parts = fromAssistant ? splitAssistantMessage(content) : splitMessage(content);
  const nodes: ReactNode[] = parts.map((part, i) => {
    if (part.kind === 'text') return <Fragment key={i}>{part.text}</Fragment>;
    if (part.kind === 'product') return <Link key={i} to={part.path} className={linkClassName} data-testid="chat-product-link">{part.text}</Link>;
    return (
      <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow" className={linkClassName} title={part.text.length > LINK_TEXT_MAX ? part.text : undefined}>
        {shorten(part.text)}
      </a>
    );
  });
  return <>{nodes}</>;
}
