import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { customer, makeState, renderWithProviders } from '../../../test/render';
import { ChatLauncher } from './ChatLauncher';

const settle = vi.hoisted(() => ({ tasks: [] as Array<() => void>, cancelled: 0 }));
vi.mock('../../../lib/after-load', () => ({
  whenPageSettled: (task: () => void) => {
    settle.tasks.push(task);
    return () => { settle.cancelled += 1; };
  },
}));
vi.mock('./ChatWidget', () => ({
  default: ({ initiallyOpen }: { initiallyOpen: boolean }) => <div data-testid="chat-widget">{initiallyOpen ? 'open' : 'closed'}</div>,
}));

beforeEach(() => {
  settle.tasks = [];
  settle.cancelled = 0;
});

describe('ChatLauncher', () => {
  it('a signed-in user gets the widget (its socket) once the page has settled, not while it starts', async () => {
    renderWithProviders(<ChatLauncher />, { state: makeState({ userInfo: customer }) });
    expect(screen.getByRole('button', { name: 'Chat Support' })).toBeInTheDocument();
    expect(screen.queryByTestId('chat-widget')).toBeNull();
    expect(settle.tasks).toHaveLength(1);
    act(() => settle.tasks[0]!());
    expect(await screen.findByTestId('chat-widget')).toHaveTextContent('closed');
  });

  it('a click loads the widget at once, opened, without waiting for the page to settle', async () => {
    renderWithProviders(<ChatLauncher />, { state: makeState({ userInfo: customer }) });
    fireEvent.click(screen.getByRole('button', { name: 'Chat Support' }));
    expect(await screen.findByTestId('chat-widget')).toHaveTextContent('open');
    // The waiting task was given up when the widget loaded.
    expect(settle.cancelled).toBe(1);
  });

  it('a guest loads it only on the first click', async () => {
    renderWithProviders(<ChatLauncher />);
    expect(settle.tasks).toHaveLength(0);
    expect(screen.queryByTestId('chat-widget')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Chat Support' }));
    expect(await screen.findByTestId('chat-widget')).toHaveTextContent('open');
  });
});
