import { router } from '../../trpc/trpc.js';

/** Read models and links the dashboard's views need (dashboard-only: tRPC procedures, no REST path). */
export const workspaceRouter = router({});
