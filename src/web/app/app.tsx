import { StrictMode, useMemo } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { AppNavigateContext, type AppNavigate } from '@web/components/ui/app-link.js';
import { TopLevelErrorBoundary } from './errors/top-level-error-boundary.js';
import { AuthProvider } from './providers/auth-provider.js';
import type { createAppRouter } from './router.js';

interface AppProps {
  queryClient: QueryClient;
  router: ReturnType<typeof createAppRouter>;
}

/**
 * Providers around the router: data cache, then the auth context every guard reads, and the router's
 * navigate for the links that lists render (AppLink).
 */
export function App({ queryClient, router }: AppProps) {
  const navigate = useMemo<AppNavigate>(
    () => (to, options) => router.navigate(to, options),
    [router],
  );
  return (
    <StrictMode>
      <TopLevelErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>
            <AppNavigateContext.Provider value={navigate}>
              <RouterProvider router={router} />
            </AppNavigateContext.Provider>
          </AuthProvider>
        </QueryClientProvider>
      </TopLevelErrorBoundary>
    </StrictMode>
  );
}
