import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { customer, makeState, mockApi, renderWithProviders } from '../../../test/render';
import { IdleTimer } from './IdleTimer';
// Loaded up front so the lazy dialog resolves without real waiting under fake timers.
import './IdleWarningDialog';

const TIMEOUT = 5 * 60 * 1000; // injected: warning at 4 min, sign-out at 5 min

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function setup() {
  const api = mockApi({ 'POST users/signout': () => ({ body: { message: 'Signed out successfully' } }) });
  const view = renderWithProviders(<IdleTimer timeoutMs={TIMEOUT} />, { route: '/profile', state: makeState({ userInfo: customer }) });
  return { ...api, ...view };
}

const dialog = () => screen.queryByRole('dialog', { name: 'Session Timeout Warning' });

describe('IdleTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // Lets Testing Library's async queries advance the fake clock.
    vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens the warning 60 s before the timeout, counts down, then signs out with the toast and goes to /signin', async () => {
    const { probe, callsTo } = setup();
    await advance(TIMEOUT - 60_000 - 1000);
    expect(dialog()).toBeNull();
    await advance(1000);
    expect(await screen.findByRole('dialog', { name: 'Session Timeout Warning' })).toBeInTheDocument();
    expect(screen.getByText('Your session is about to expire due to inactivity.')).toBeInTheDocument();
    expect(screen.getByText('You will be logged out in 60 seconds.')).toBeInTheDocument();
    expect(screen.getByText('Do you want to stay logged in?')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stay Active' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout Now' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /close/i })).toBeNull();

    await advance(1000);
    expect(screen.getByText('You will be logged out in 59 seconds.')).toBeInTheDocument();
    await advance(58_000);
    expect(screen.getByText('You will be logged out in 1 seconds.')).toBeInTheDocument();
    expect(callsTo('POST users/signout')).toHaveLength(0);

    await advance(1000);
    expect(callsTo('POST users/signout')).toHaveLength(1);
    expect(probe.state.userInfo).toBeNull();
    expect(probe.state.isLoggedOut).toBe(true);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin$/);
    expect(await screen.findByText('You have been logged out due to inactivity')).toBeInTheDocument();
  });

  it('restarts on activity before the warning', async () => {
    const { callsTo } = setup();
    await advance(TIMEOUT - 90_000);
    fireEvent.keyDown(document.body, { key: 'a' });
    await advance(60_000); // the original warning time has passed
    expect(dialog()).toBeNull();
    await advance(TIMEOUT - 60_000 - 60_000 - 1000);
    expect(dialog()).toBeNull();
    await advance(1000); // timeout minus 60 s after the key press
    expect(await screen.findByRole('dialog', { name: 'Session Timeout Warning' })).toBeInTheDocument();
    expect(callsTo('POST users/signout')).toHaveLength(0);
  });

  it('is not dismissed by Escape or pointer travel, but activity outside the dialog closes it and restarts', async () => {
    setup();
    await advance(TIMEOUT - 60_000);
    const open = await screen.findByRole('dialog', { name: 'Session Timeout Warning' });
    fireEvent.keyDown(open, { key: 'Escape' });
    fireEvent.mouseMove(document.body);
    await advance(1000);
    expect(dialog()).toBeInTheDocument();
    expect(screen.getByText('You will be logged out in 59 seconds.')).toBeInTheDocument();

    fireEvent.keyDown(document.body, { key: 'Shift' });
    await advance(500);
    expect(dialog()).toBeNull();
  });

  it("'Stay Active' closes the warning and restarts the timer", async () => {
    const { callsTo } = setup();
    await advance(TIMEOUT - 60_000);
    fireEvent.click(await screen.findByRole('button', { name: 'Stay Active' }));
    await advance(500);
    expect(dialog()).toBeNull();
    await advance(TIMEOUT - 60_000 - 1000);
    expect(dialog()).toBeNull();
    expect(callsTo('POST users/signout')).toHaveLength(0);
    await advance(500);
    expect(await screen.findByRole('dialog', { name: 'Session Timeout Warning' })).toBeInTheDocument();
  });

  it("'Logout Now' signs out at once, without the inactivity toast", async () => {
    const { callsTo, probe } = setup();
    await advance(TIMEOUT - 60_000);
    fireEvent.click(await screen.findByRole('button', { name: 'Logout Now' }));
    await advance(100);
    expect(callsTo('POST users/signout')).toHaveLength(1);
    expect(probe.state.userInfo).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/signin$/);
    expect(screen.queryByText('You have been logged out due to inactivity')).toBeNull();
  });
});
