import { Fragment, type ReactNode } from 'react';
import { LINK_TEXT_MAX, splitMessage } from './message-parts';

const shorten = (text: string) => (text.length > LINK_TEXT_MAX ? `${text.slice(0, LINK_TEXT_MAX - 1)}…` : text);

/**
 * A chat message's text: http/https addresses become links that open in a new tab without giving
 * the page access to the opener or passing ranking (`noopener noreferrer nofollow`); everything
 * else is React text, so markup in a message stays inert.
 */
export function MessageText({ content, linkClassName }: { content: string; linkClassName?: string }) {
  const nodes: ReactNode[] = splitMessage(content).map((part, i) => (part.kind === 'text'
    ? <Fragment key={i}>{part.text}</Fragment>
    : (
      <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow" className={linkClassName} title={part.text.length > LINK_TEXT_MAX ? part.text : undefined}>
        {shorten(part.text)}
      </a>
    )));
  return <>{nodes}</>;
}
