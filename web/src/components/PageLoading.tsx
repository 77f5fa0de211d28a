import { LoadingBox } from './LoadingBox';

/**
 * The loading state of a whole page: as tall as the screen, so the footer stays below the fold until
 * the content arrives instead of being pushed down by it (a large layout shift on phones).
 */
export function PageLoading() {
  return (
    <div style={{ minHeight: '100vh' }}>
      <LoadingBox />
    </div>
  );
}
