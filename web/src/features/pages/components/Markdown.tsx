import ReactMarkdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';

const components: Components = {
  // Links inside the shop stay in the app; others open safely in a new tab.
  a: ({ href = '', children }) =>
    href.startsWith('/') && !href.startsWith('//') ? (
      <Link to={href}>{children}</Link>
    ) : (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ),
  // The page's own title is the only h1.
  h1: ({ children }) => <h2 className="h4 mt-4">{children}</h2>,
  h2: ({ children }) => <h2 className="h4 mt-4">{children}</h2>,
  h3: ({ children }) => <h3 className="h5 mt-3">{children}</h3>,
};

/**
 * Markdown written by an administrator, rendered without raw HTML (skipped, never injected) and
 * with react-markdown's URL check (no javascript: links).
 */
export function Markdown({ children }: { children: string }) {
  return (
    <ReactMarkdown skipHtml components={components}>
      {children}
    </ReactMarkdown>
  );
}
