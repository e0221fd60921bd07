import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import { useState } from 'react';
import { type AppRouter, problemOf, TRPCProvider } from '../trpc';
import { SharedView } from './SharedView';

/**
 * The page a stakeholder link opens: no sign-in, no stored token, no storage of any kind. Its one
 * client sends no credentials, one call per request (the token travels in the call's input).
 */
export function SharedApp({ token }: { token: string }) {
  const [client] = useState(() => createTRPCClient<AppRouter>({ links: [httpLink({ url: '/trpc' })] }));
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 60_000,
            // An unknown, revoked or expired link does not get better by asking again.
            retry: (failures, error) => failures < 2 && (problemOf(error).httpStatus ?? 500) >= 500,
            refetchOnWindowFocus: false,
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={client} queryClient={queryClient}>
        <SharedView token={token} />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
