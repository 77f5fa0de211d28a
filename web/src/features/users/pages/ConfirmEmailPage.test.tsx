import { EMAIL_CHANGE_EXPIRED, EMAIL_CHANGE_TAKEN } from '@shop/contracts/constants';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { customer, makeState, mockApi, renderWithProviders } from '../../../test/render';
import { SessionSync } from '../../auth';
import ConfirmEmailPage from './ConfirmEmailPage';

afterEach(() => vi.unstubAllGlobals());

/** The success box (the loading box before it is a status too). */
const confirmation = async () => (await screen.findByText(/Your e-mail address is now/)).closest('[role="status"]');

const CONFIRMED = { message: 'Your e-mail address has been changed. Sign in with it from now on.', email: 'jane.new@example.com' };

describe('ConfirmEmailPage', () => {
  it('sends the token once and says the new address; signed in, the session reads the user again and shows it', async () => {
    const moved = { ...customer, email: 'jane.new@example.com' };
    let confirmedOnServer = false;
    const { callsTo } = mockApi({
      'POST users/confirm-email': () => {
        confirmedOnServer = true;
        return { body: CONFIRMED };
      },
      // the server's answer changes only once the link was used: the page must ask again after it
      'GET users/current': () => ({ body: confirmedOnServer ? moved : customer }),
    });
    // With the layout's SessionSync, as in the app: the user read again replaces the stored one.
    const { probe } = renderWithProviders(<><SessionSync /><ConfirmEmailPage /></>, {
      route: '/confirm-email?token=abc-123', path: '/confirm-email', state: makeState({ userInfo: customer }),
    });
    expect(await confirmation()).toHaveTextContent(
      'Your e-mail address has been changed. Sign in with it from now on. Your e-mail address is now jane.new@example.com.',
    );
    expect(screen.getByRole('link', { name: 'Go to your profile' })).toHaveAttribute('href', '/profile');
    expect(callsTo('POST users/confirm-email')).toEqual([{ method: 'POST', path: 'users/confirm-email', body: { token: 'abc-123' } }]);
    await waitFor(() => expect(probe.state.userInfo).toEqual(moved));
  });

  it('signed out (another browser): the same answer, with a way to sign in', async () => {
    mockApi({ 'POST users/confirm-email': () => ({ body: CONFIRMED }), 'GET users/current': () => ({ body: null }) });
    const { probe } = renderWithProviders(<ConfirmEmailPage />, { route: '/confirm-email?token=t', path: '/confirm-email' });
    expect(await confirmation()).toHaveTextContent('Your e-mail address is now jane.new@example.com.');
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    expect(probe.state.userInfo).toBeNull();
  });

  it.each([
    [400, { message: EMAIL_CHANGE_EXPIRED, code: 'EMAIL_CHANGE_EXPIRED' }],
    [409, { message: EMAIL_CHANGE_TAKEN, code: 'EMAIL_CHANGE_TAKEN' }],
  ])("a refused link (%i) shows the server's explanation in a red alert, with the way forward", async (status, body) => {
    mockApi({ 'POST users/confirm-email': () => ({ status, body }) });
    renderWithProviders(<ConfirmEmailPage />, { route: '/confirm-email?token=old', path: '/confirm-email', state: makeState({ userInfo: customer }) });
    expect(await screen.findByRole('alert')).toHaveTextContent(body.message);
    expect(screen.getByRole('link', { name: 'Go to your profile' })).toHaveAttribute('href', '/profile');
  });

  it('without a token goes to / and sends nothing', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<ConfirmEmailPage />, { route: '/confirm-email', path: '/confirm-email' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(calls).toHaveLength(0);
  });
});
