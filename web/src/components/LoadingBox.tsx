// Plain Bootstrap markup (what react-bootstrap's Spinner renders): the loading box is part of the initial chunk.
export function LoadingBox({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="d-flex justify-content-center my-4" role="status" aria-live="polite">
      <div className="spinner-border" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
