import { defineQuery } from '../../db/query.js';
import { sql } from '../../db/sql.js';
import { newId } from '../../lib/ids.js';

/**
 * A script's hidden preview campaign, made on first use (one per script: a partial unique index,
 * so a concurrent first preview shares it). Its name and the title participants see follow the
 * script's name as it is now.
 */
export const upsertPreviewCampaign = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, scriptId, scriptName }: { organizationId: string; scriptId: string; scriptName: string }) =>
    sql`insert into campaigns (id, organization_id, project_id, script_id, name, description, participant_title, preview, status, settings, invite_defaults, metadata, created_at, updated_at)
          values (${newId('cam')}, ${organizationId}, null, ${scriptId}, ${`Preview of ${scriptName}`}, null, ${scriptName}, true, 'active', '{}'::jsonb, '{}'::jsonb, '{}'::jsonb, now(), now())
          on conflict (script_id) where preview
          do update set name = excluded.name, participant_title = excluded.participant_title, status = 'active', updated_at = now()
          returning id`,
  example: { organizationId: 'org_example', scriptId: 'scr_example', scriptName: 'Example' },
});
