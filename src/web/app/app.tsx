import { StrictMode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { TopLevelErrorBoundary } from './errors/top-level-error-boundary.js';
import { AuthProvider } from './providers/auth-provider.js';
import type { createAppRouter } from './router.js';

interface AppProps {
  queryClient: QueryClient;
  router: ReturnType<typeof createAppRouter>;
}

/** Providers around the router: data cache, then the auth context every guard reads. */
export function App({ queryClient, router }: AppProps) {
  return (
    <StrictMode>
      <TopLevelErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
        </QueryClientProvider>
      </TopLevelErrorBoundary>
    </StrictMode>
  );
}
