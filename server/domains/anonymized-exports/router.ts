import { router } from '../../trpc/trpc.js';

/** Anonymized exports (dashboard-only: tRPC procedures, no REST path). */
export const anonymizedExportsRouter = router({});
