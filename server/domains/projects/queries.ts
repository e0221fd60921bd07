import { sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';

/** How many campaigns each project holds (previews are not campaigns a researcher made). */
export const campaignCountsByProject = defineQuery({
  columns: { project_id: 'text', count: 'bigint' },
  statement: ({ projectIds }: { projectIds: string[] }) =>
    sql`select project_id, count(*) as count from campaigns where project_id = any(${projectIds}) and not preview group by project_id`,
  example: { projectIds: ['prj_example'] },
});

/** A deleted project's scripts stay, unassigned (their updatedAt moves). */
export const unassignProjectScripts = defineQuery({
  columns: {},
  statement: ({ projectId }: { projectId: string }) => sql`update scripts set project_id = null, updated_at = now() where project_id = ${projectId}`,
  example: { projectId: 'prj_example' },
});

/** A deleted project's campaigns stay, unassigned (their updatedAt moves). */
export const unassignProjectCampaigns = defineQuery({
  columns: {},
  statement: ({ projectId }: { projectId: string }) => sql`update campaigns set project_id = null, updated_at = now() where project_id = ${projectId}`,
  example: { projectId: 'prj_example' },
});
