import Alert from 'react-bootstrap/Alert';
import type { ReactNode } from 'react';

/** Errors appear in a red alert (SPEC.md section 8); info and success variants too. */
export function MessageBox({ variant = 'info', children }: { variant?: 'danger' | 'info' | 'success' | 'warning'; children: ReactNode }) {
  return (
    <Alert variant={variant} role={variant === 'danger' ? 'alert' : 'status'}>
      {children}
    </Alert>
  );
}
