import { router } from '../../trpc/trpc.js';

/** Manual redaction, sentiment override and anonymized export (dashboard-only: tRPC procedures, no REST path). */
export const redactionsRouter = router({});
