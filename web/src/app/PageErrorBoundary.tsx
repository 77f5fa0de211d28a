import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ChunkLoadError, retryFailedChunks } from './lazy-page';

interface BoundaryProps {
  locationKey: string;
  /** What to show instead of the friendly message (e.g. nothing, for the footer's chunk). */
  fallback?: ReactNode;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  errorKey: string | null;
  /** Bumped by Retry: the children are mounted anew. */
  attempt: number;
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, errorKey: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.errorKey === props.locationKey) return null;
    // Another page (a link, back, forward): try again there.
    return { error: null, errorKey: props.locationKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('The page failed', error, info.componentStack);
  }

  private readonly retry = () => {
    retryFailedChunks();
    this.setState((s) => ({ error: null, attempt: s.attempt + 1 }));
  };

  override render() {
    const { error, attempt } = this.state;
    if (error === null) return <RetryScope key={attempt}>{this.props.children}</RetryScope>;
    if (this.props.fallback !== undefined) return this.props.fallback;
    const chunk = error instanceof ChunkLoadError;
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    return (
      <section className="shop-page-error text-center py-5 mx-auto" role="alert" aria-labelledby="page-error-title" style={{ maxWidth: '32rem' }}>
        <h1 id="page-error-title" className="h3 mb-3">{chunk ? 'This page could not be loaded' : 'Something went wrong on this page'}</h1>
        <p className="mb-4">
          {offline
            ? 'You seem to be offline. Check your connection, then try again.'
            : chunk
              ? 'The shop may have just been updated, or the connection dropped for a moment. Please try again.'
              : 'Please try again. If it keeps happening, come back a little later.'}
        </p>
        <button type="button" className="btn btn-primary" onClick={this.retry}>Retry</button>
      </section>
    );
  }
}

function RetryScope({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

/**
 * Inside the app shell (header and footer stay): a page that fails to render, or whose chunk
 * cannot be loaded even after the one reload (lazy-page.tsx), shows a friendly message with a
 * Retry button instead of the router's bare error screen. Works offline (nothing to fetch).
 */
export function PageErrorBoundary({ children, fallback }: { children: ReactNode; fallback?: ReactNode }) {
  const location = useLocation();
  return <Boundary locationKey={location.key} {...(fallback !== undefined ? { fallback } : {})}>{children}</Boundary>;
}
