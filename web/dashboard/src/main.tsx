import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AuthProvider, useAuth } from './auth';
import { RouterProvider } from './router';
import { sharedTokenOf } from './shared-view/shared-token';
import { problemOf, TRPCProvider } from './trpc';
import { Loading } from './ui';
import './styles.css';

// A stakeholder's page loads only what it shows, not the dashboard's editors.
const SharedApp = lazy(() => import('./shared-view/SharedApp').then((module) => ({ default: module.SharedApp })));

function Providers() {
  const { client } = useAuth();
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 15_000,
            // A client mistake or a missing record does not get better by asking again.
            retry: (failures, error) => failures < 2 && (problemOf(error).httpStatus ?? 500) >= 500,
            refetchOnWindowFocus: false,
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={client} queryClient={queryClient}>
        <RouterProvider>
          <App />
        </RouterProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}

// A stakeholder link (`/shared/{token}`, served with this same page) is read without signing in:
// the sign-in (its stored refresh token, its tab sync) is not even started there.
const sharedToken = sharedTokenOf(window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {sharedToken !== null ? (
      <Suspense fallback={<Loading what="Loading" />}>
        <SharedApp token={sharedToken} />
      </Suspense>
    ) : (
      <AuthProvider>
        <Providers />
      </AuthProvider>
    )}
  </StrictMode>,
);
