import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState } from 'react';
import { whenPageSettled } from '../../../lib/after-load';
import { toast } from '../../../lib/toast';
import { useSignOut } from '../hooks/use-session';
import { IDLE_DIALOG_CONTENT_CLASS } from './idle-constants';

/** SPEC section 9: session timeout 60 minutes; the warning counts down 60 s. */
export const SESSION_TIMEOUT_MS = 60 * 60 * 1000;
export const WARNING_COUNTDOWN_SECONDS = 60;
export const IDLE_LOGOUT_MESSAGE = 'You have been logged out due to inactivity';

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'wheel', 'touchstart', 'click'] as const;
/** Restarting on every mouse move is wasteful; once a second is plenty for a 60-minute timer. */
const RESTART_THROTTLE_MS = 1000;

const loadDialog = () => import('./IdleWarningDialog');
const IdleWarningDialog = lazy(loadDialog);

interface IdleControls {
  restart: () => void;
  logOut: (reason: 'idle' | 'user') => void;
}

/**
 * Signs out a signed-in user after `timeoutMs` without activity (mounted only while signed in).
 * At timeout minus the countdown a warning opens and counts down; at zero: sign-out, the toast
 * 'You have been logged out due to inactivity' and /signin. Mouse, key, scroll, touch and click
 * activity restarts the timer and closes the warning. While the warning is open, pointer travel and
 * anything inside the dialog do not count (so its buttons can be reached), and Escape does nothing.
 */
export function IdleTimer({ timeoutMs = SESSION_TIMEOUT_MS, countdownSeconds = WARNING_COUNTDOWN_SECONDS }: { timeoutMs?: number; countdownSeconds?: number }) {
  const signOut = useSignOut();
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const controls = useRef<IdleControls | null>(null);

  const endSession = useEffectEvent(async (reason: 'idle' | 'user') => {
    await signOut();
    if (reason === 'idle') toast.info(IDLE_LOGOUT_MESSAGE);
  });

  useEffect(() => {
    let warningTimer: number | undefined;
    let countdownTimer: number | undefined;
    let isWarningOpen = false;
    let lastRestart = 0;
    let isDone = false;

    const clearTimers = () => {
      window.clearTimeout(warningTimer);
      window.clearInterval(countdownTimer);
    };

    const logOut = (reason: 'idle' | 'user') => {
      if (isDone) return;
      isDone = true;
      clearTimers();
      isWarningOpen = false;
      setSecondsLeft(null);
      void endSession(reason);
    };

    const startCountdown = () => {
      const deadline = Date.now() + countdownSeconds * 1000;
      isWarningOpen = true;
      setSecondsLeft(countdownSeconds);
      countdownTimer = window.setInterval(() => {
        // Computed from the clock, so a throttled background tab still signs out on time.
        const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
        setSecondsLeft(left);
        if (left === 0) logOut('idle');
      }, 1000);
    };

    const restart = () => {
      if (isDone) return;
      clearTimers();
      lastRestart = Date.now();
      isWarningOpen = false;
      setSecondsLeft(null);
      warningTimer = window.setTimeout(startCountdown, Math.max(0, timeoutMs - countdownSeconds * 1000));
    };

    const onActivity = (event: Event) => {
      if (isWarningOpen) {
        if (event.type === 'mousemove') return;
        if (event.type === 'keydown' && (event as KeyboardEvent).key === 'Escape') return;
        const target = event.target;
        if (target instanceof Element && target.closest(`.${IDLE_DIALOG_CONTENT_CLASS}`)) return;
      } else if (Date.now() - lastRestart < RESTART_THROTTLE_MS) {
        return;
      }
      restart();
    };

    controls.current = { restart, logOut };
    restart();
    // The dialog's code is fetched once the page has settled, so it opens even if the network is gone by then.
    const cancelPreload = whenPageSettled(() => void loadDialog());
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { capture: true, passive: true });
    return () => {
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
      clearTimers();
      cancelPreload();
      controls.current = null;
    };
  }, [timeoutMs, countdownSeconds]);

  if (secondsLeft === null) return null;
  return (
    <Suspense fallback={null}>
      <IdleWarningDialog show secondsLeft={secondsLeft} onStay={() => controls.current?.restart()} onLogout={() => controls.current?.logOut('user')} />
    </Suspense>
  );
}
