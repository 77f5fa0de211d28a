import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Generous waits: the whole web suite runs files in parallel, beside the server and browser lanes of
// `npm test`, and a 2-core machine that busy can take seconds to type into a field and re-render
// (a CI run at load 19 needed more than 5 s for one form). A wait that is really not met still fails.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
