import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { ToastHost } from './ToastHost';

describe('ToastHost and lib/toast', () => {
  it('loads react-toastify on the first toast, mounts the container and shows the toast sent before it was there', async () => {
    render(<ToastHost />);
    expect(document.querySelector('.Toastify')).toBeNull();
    toast.success('Saved before the container');
    expect(await screen.findByText('Saved before the container')).toBeInTheDocument();
    toast.error('Sent once it is there');
    expect(await screen.findByText('Sent once it is there')).toBeInTheDocument();
  });
});
