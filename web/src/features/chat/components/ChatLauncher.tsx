import { lazy, Suspense, useEffect, useState } from 'react';
import { useStore } from '../../../lib/store';
import { whenPageSettled } from '../../../lib/after-load';

// The widget (socket, panel, admin view) is its own chunk: the storefront's first load only carries this button.
const ChatWidget = lazy(() => import('./ChatWidget'));

/**
 * The floating chat button. Signed-in users get the widget (and its socket, for live messages and
 * unread badges) once the page has settled (lib/after-load); everyone else loads it on the first click.
 */
export function ChatLauncher() {
  const { state } = useStore();
  const [load, setLoad] = useState(false);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const signedIn = Boolean(state.userInfo);

  useEffect(() => {
    if (!signedIn || load) return;
    return whenPageSettled(() => setLoad(true));
  }, [signedIn, load]);

  const button = (
    <button
      type="button"
      className="btn btn-primary rounded-circle shadow shop-chat-button"
      aria-label="Chat Support"
      onClick={() => { setOpenOnLoad(true); setLoad(true); }}
    >
      <svg width="26" height="26" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2z" /></svg>
    </button>
  );
  if (!load) return button;
  return (
    <Suspense fallback={button}>
      <ChatWidget key={state.userInfo?._id ?? 'anonymous'} initiallyOpen={openOnLoad} />
    </Suspense>
  );
}
