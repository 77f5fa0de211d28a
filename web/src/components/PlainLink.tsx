import type { AnchorHTMLAttributes } from 'react';

/** Marks an `<a>` whose plain clicks the app's router follows (see useClientLinks). */
export const CLIENT_LINK_ATTRIBUTE = 'data-client-link';

type PlainLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path of this app ('/product/blue-mug'). */
  to: string;
};

/**
 * A link to a page of the app for lists that render many (product cards): a plain `<a href>` with
 * no hooks, which the one document-level handler of the layout (useClientLinks) turns into an
 * in-app navigation. React Router's `<Link>` resolves its path and builds a click handler per link
 * on every render: 16 % of the home page's server rendering (bench/ssr/render-ab.ts), and as much
 * again in the phone's hydration. Without the handler (no JavaScript yet) it is an ordinary link.
 */
export function PlainLink({ to, ...rest }: PlainLinkProps) {
  return <a href={to} {...{ [CLIENT_LINK_ATTRIBUTE]: '' }} {...rest} />;
}
