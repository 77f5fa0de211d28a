import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { CLIENT_LINK_ATTRIBUTE } from '../../components/PlainLink';

/** The in-app path an event's click on a PlainLink goes to, or null when the browser should follow it itself. */
export function clientLinkTarget(event: MouseEvent, origin: string): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const target = event.target;
  const anchor = target instanceof Element ? target.closest(`a[${CLIENT_LINK_ATTRIBUTE}]`) : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  const url = new URL(anchor.href, origin);
  if (url.origin !== origin) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * Follows clicks on PlainLinks inside the app, as React Router's `<Link>` would: one listener on
 * the document for all of them. A click with a modifier key or another button (new tab, new
 * window), a link with a target or `download`, or another origin is left to the browser. A link to
 * the page already shown replaces its history entry instead of adding one, like `<Link>`.
 */
export function useClientLinks(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const to = clientLinkTarget(event, window.location.origin);
      if (to === null) return;
      event.preventDefault();
      const here = window.location.pathname + window.location.search + window.location.hash;
      void navigate(to, { replace: to === here });
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
}
