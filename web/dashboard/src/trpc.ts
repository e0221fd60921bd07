import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/app-router.js';
import { RestError } from './rest';

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** The server's batch limit (MAX_TRPC_BATCH_SIZE): a longer batch would be refused whole. */
const MAX_BATCH = 10;

/** Sign-in and refresh go alone: a batch is let through without credentials only when every call in it is public. */
const UNBATCHED = new Set(['auth.signIn', 'auth.refresh']);

/**
 * The one client of the app: every call goes to `/trpc` on this origin, with the member's access
 * token from `accessToken()` (which refreshes it first when it is about to expire).
 */
export function createClient(accessToken: () => Promise<string | undefined>) {
  const headers = async () => {
    const token = await accessToken();
    return token ? { Authorization: `Bearer ${token}` } : {};
  };
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => UNBATCHED.has(op.path),
        true: httpLink({ url: '/trpc' }),
        false: httpBatchLink({ url: '/trpc', maxItems: MAX_BATCH, headers }),
      }),
    ],
  });
}

export type Client = ReturnType<typeof createClient>;

/** What the server says went wrong: its message, code and the fields at fault. */
export interface ProblemInfo {
  message: string;
  appCode: string | undefined;
  httpStatus: number | undefined;
  fields: { path: string; message: string }[];
  details: Record<string, unknown>;
}

export function problemOf(error: unknown): ProblemInfo {
  if (error instanceof RestError) return error.problem;
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as { appCode?: string; httpStatus?: number; details?: Record<string, unknown> };
    const details = data.details ?? {};
    const fields = Array.isArray(details.fields) ? (details.fields as { path: string; message: string }[]) : [];
    return { message: error.message, appCode: data.appCode, httpStatus: data.httpStatus, fields, details };
  }
  return { message: error instanceof Error ? error.message : String(error), appCode: undefined, httpStatus: undefined, fields: [], details: {} };
}
