import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHAT_TEXTS } from '@shop/contracts/chat-constants';
import { blinkTitle, stopTitleBlink } from './alerts';

describe('title blink', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('blinks the title, and stopTitleBlink ends it at once with the title back and no timer left', () => {
    vi.useFakeTimers();
    document.title = 'Shop';
    blinkTitle();
    vi.advanceTimersByTime(1000);
    expect(document.title).toBe(CHAT_TEXTS.newMessageTitle);
    stopTitleBlink();
    expect(document.title).toBe('Shop');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops by itself after the pulse time, and a focus stops it too', () => {
    vi.useFakeTimers();
    document.title = 'Shop';
    blinkTitle();
    vi.advanceTimersByTime(60_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(document.title).toBe('Shop');
    blinkTitle();
    window.dispatchEvent(new Event('focus'));
    expect(vi.getTimerCount()).toBe(0);
    expect(document.title).toBe('Shop');
  });
});
