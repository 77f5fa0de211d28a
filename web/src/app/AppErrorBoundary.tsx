import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';

interface BoundaryProps {
  locationKey: string;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  errorKey: string | null;
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, errorKey: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.error === null) return state.errorKey === props.locationKey ? null : { errorKey: props.locationKey };
    // Another page (back, forward, a typed URL): try again.
    return state.errorKey === props.locationKey ? null : { error: null, errorKey: props.locationKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Unexpected application error', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    const message = error instanceof Error ? error.message : String(error);
    return (
      <div className="container py-4" role="alert">
        <h2>Unexpected Application Error!</h2>
        <h3 className="fst-italic">{message}</h3>
      </div>
    );
  }
}

/**
 * What the data router's default error element showed: an error thrown while rendering a page (a
 * chunk that fails to load, a bug) replaces the app with its message until the next navigation,
 * instead of leaving a blank page.
 */
export function AppErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <Boundary locationKey={location.key}>{children}</Boundary>;
}
