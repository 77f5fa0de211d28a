import { act, render, screen, waitFor } from '@testing-library/react';
import { toast, ToastContainer } from 'react-toastify';
import { describe, expect, it } from 'vitest';
import { useSingleToast } from './use-single-toast';

function Host() {
  useSingleToast();
  return <ToastContainer position="bottom-center" />;
}

describe('useSingleToast', () => {
  it('shows one toast at a time: a new toast replaces the current one and nothing is queued', async () => {
    render(<Host />);
    let first: string | number = '';
    act(() => { first = toast.success('First'); });
    expect(await screen.findByText('First')).toBeInTheDocument();
    let second: string | number = '';
    let third: string | number = '';
    act(() => { second = toast.error('Second'); third = toast.info('Third'); });
    expect(await screen.findByText('Third')).toBeInTheDocument();
    // (jsdom runs no exit animations, so dismissed toasts are checked through react-toastify's own state.)
    await waitFor(() => expect(toast.isActive(third)).toBe(true));
    expect(toast.isActive(first)).toBe(false);
    expect(toast.isActive(second)).toBe(false);
  });
});
