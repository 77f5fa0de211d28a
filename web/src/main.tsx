// First: configures zod before any schema is built (see the module).
import './lib/zod-jitless';
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppErrorBoundary } from './app/AppErrorBoundary';
import { AppProviders, createQueryClient } from './app/providers';
import { AppRoutes } from './app/router';

const queryClient = createQueryClient();

const root = createRoot(document.getElementById('root')!);
// The first render as a transition: React yields to the browser every few milliseconds instead of
// rendering the whole shell in one long task (the main thread stays responsive while the app starts).
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <BrowserRouter>
          <AppErrorBoundary>
            <AppRoutes />
          </AppErrorBoundary>
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  );
});
