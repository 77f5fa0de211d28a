import { CHAT_PULSE_MS, CHAT_SOUND_VOLUME, CHAT_TEXTS } from '@shop/contracts/chat-constants';

let beepUrl: string | null = null;

/** A short generated beep (no audio file to download). */
function beep(): string {
  if (beepUrl) return beepUrl;
  const rate = 8000;
  const samples = Math.floor(rate * 0.18);
  const buf = new DataView(new ArrayBuffer(44 + samples));
  const text = (o: number, s: string) => { for (let i = 0; i < s.length; i += 1) buf.setUint8(o + i, s.charCodeAt(i)); };
  text(0, 'RIFF'); buf.setUint32(4, 36 + samples, true); text(8, 'WAVE'); text(12, 'fmt ');
  buf.setUint32(16, 16, true); buf.setUint16(20, 1, true); buf.setUint16(22, 1, true);
  buf.setUint32(24, rate, true); buf.setUint32(28, rate, true); buf.setUint16(32, 1, true); buf.setUint16(34, 8, true);
  text(36, 'data'); buf.setUint32(40, samples, true);
  for (let i = 0; i < samples; i += 1) buf.setUint8(44 + i, 128 + Math.round(60 * Math.sin((2 * Math.PI * 880 * i) / rate) * (1 - i / samples)));
  let binary = '';
  new Uint8Array(buf.buffer).forEach((b) => { binary += String.fromCharCode(b); });
  beepUrl = `data:audio/wav;base64,${btoa(binary)}`;
  return beepUrl;
}

/** SPEC §9: notification sound at volume 0.7. Browsers may refuse before a user gesture: ignored. */
export function playNotificationSound(): HTMLAudioElement | null {
  try {
    const audio = new Audio(beep());
    audio.volume = CHAT_SOUND_VOLUME;
    void audio.play()?.catch(() => undefined);
    return audio;
  } catch {
    return null;
  }
}

/** Ends the blink under way (and puts the title back); null when the title is not blinking. */
let stopBlink: (() => void) | null = null;

/** Blinks the page title 'New Message!' until the window gets focus or 10 s pass. */
export function blinkTitle(): void {
  if (stopBlink) return;
  const original = document.title;
  let on = false;
  const interval = setInterval(() => {
    on = !on;
    document.title = on ? CHAT_TEXTS.newMessageTitle : original;
  }, 1000);
  const timeout = setTimeout(() => stop(), CHAT_PULSE_MS);
  const stop = () => {
    clearInterval(interval);
    clearTimeout(timeout);
    stopBlink = null;
    document.title = original;
    window.removeEventListener('focus', stop);
  };
  window.addEventListener('focus', stop);
  stopBlink = stop;
}

/** Ends a title blink at once and puts the title back (the widget going away). */
export function stopTitleBlink(): void {
  stopBlink?.();
}

/** Asked once, on the first click of a non-administrator (SPEC §4). */
export function requestNotificationPermissionOnce(): void {
  try {
    if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission();
  } catch { /* unsupported */ }
}
