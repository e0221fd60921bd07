import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AuthProvider, useAuth } from './auth';
import { RouterProvider } from './router';
import { problemOf, TRPCProvider } from './trpc';
import './styles.css';

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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AuthProvider>
      <Providers />
    </AuthProvider>
  </StrictMode>,
);
