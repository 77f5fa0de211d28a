import Spinner from 'react-bootstrap/Spinner';

export function LoadingBox({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="d-flex justify-content-center my-4" role="status" aria-live="polite">
      <Spinner animation="border" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
