import { Fragment } from 'react';

/** A domain longer than this is also cut before its dots; a shorter one stays whole. */
const LONG_DOMAIN = 24;

/**
 * An e-mail address cut where a line may break without splitting a word: after the @, and in a long
 * domain before each dot (`jane.doe@` `example.com`; `someone@` `mail` `.engineering` `.example` `.org`).
 * The local part stays whole.
 */
export function emailParts(email: string): string[] {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return [email];
  const domain = email.slice(at + 1);
  if (domain.length <= LONG_DOMAIN) return [email.slice(0, at + 1), domain];
  const [first = '', ...rest] = domain.split('.');
  return [email.slice(0, at + 1), first, ...rest.map((label) => `.${label}`)].filter(Boolean);
}

/**
 * An e-mail address in a table or a line of text: it wraps only between its parts (emailParts, each
 * kept whole), never in the middle of a word, so a narrow column shows `jane.doe@` / `example.com`
 * rather than `jane.d` / `oe@exam…`. In the stacked cards of a phone-width AdminTable a part that is
 * wider than the card may still break (styles.css).
 */
export function EmailText({ email, className = '' }: { email: string; className?: string }) {
  const parts = emailParts(email);
  return (
    <span className={`shop-email ${className}`.trim()}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span>{part}</span>
        </Fragment>
      ))}
    </span>
  );
}
