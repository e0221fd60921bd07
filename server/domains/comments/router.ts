import { router } from '../../trpc/trpc.js';

/** Comment threads on a session or an utterance (dashboard-only: tRPC procedures, no REST path). */
export const commentsRouter = router({});
