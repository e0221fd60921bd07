import { router } from '../../trpc/trpc.js';

/** Cross-transcript full-text search (dashboard-only: tRPC procedures, no REST path). */
export const searchRouter = router({});
