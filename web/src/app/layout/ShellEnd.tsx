import { IdleTimer } from '../../features/auth/components/IdleTimer';
import { ChatLauncher } from '../../features/chat/components/ChatLauncher';
import { useStore } from '../../lib/store';
import { CookieNotice } from './CookieNotice';
import { Footer } from './Footer';
import { ToastHost } from './ToastHost';

/**
 * The parts of the shell the first paint does not need, in one lazy chunk: the toast container
 * (toasts sent before it is there wait in react-toastify's queue), the idle timer of a signed-in
 * user, the footer (below the fold), the cookie notice (shown a second after load at the earliest)
 * and the fixed chat button. The back office (`backOffice`) has neither footer nor chat button: it
 * answers chats on its own pages.
 */
export default function ShellEnd({ backOffice = false }: { backOffice?: boolean }) {
  const { state } = useStore();
  return (
    <>
      <ToastHost />
      {state.userInfo && <IdleTimer key={state.userInfo._id} />}
      {!backOffice && <Footer />}
      <CookieNotice />
      {!backOffice && <ChatLauncher />}
    </>
  );
}
