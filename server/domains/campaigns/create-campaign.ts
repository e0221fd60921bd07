import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TCreateCampaignInput } from '../../../shared/schemas/campaigns.js';
import { isoTimestamp, queryRows, rawSql, sql } from '../../db/sql.js';
import type { EmailTemplates } from '../../email/templates.js';
import { AppError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { assertKnownVoice, type SpeechSynthesizer } from '../../speech/speech-synthesizer.js';
import { assertKnownEmailTemplate } from '../invites/invite-options.js';
import { loadProjectForAssignment } from '../projects/index.js';
import { campaignDtoFromRow } from './campaign-rows.js';
import { loadUsableScript } from './usable-script.js';

const RETURNED = rawSql(
  `id, project_id, script_id, name, participant_title, description, status, settings, invite_defaults, metadata, ${isoTimestamp('created_at')} as created_at, ${isoTimestamp('updated_at')} as updated_at`,
);

/**
 * A new campaign is active, on a script with a published version; its stats are all zero. One
 * statement inserts it from its script, which must be the organization's, not deleted or
 * archived, and published (share-locked, so a concurrent delete cannot slip in), and from its
 * project when one is named. When nothing is inserted, the loaders say why (404, SCRIPT_ARCHIVED,
 * SCRIPT_NOT_PUBLISHED): the usual answer costs one statement, a refusal a few more.
 */
export async function createCampaign(
  em: EntityManager,
  templates: EmailTemplates,
  organizationId: string,
  input: TCreateCampaignInput,
  /** The server's speech synthesis: `settings.voice` must be one of its voices (any name without one: the browser's). */
  synthesizer: Pick<SpeechSynthesizer, 'voices' | 'name'> | null,
): Promise<TCampaign> {
  assertKnownEmailTemplate(templates, input.inviteDefaults?.emailTemplate, 'inviteDefaults.emailTemplate');
  assertKnownVoice(synthesizer, input.settings?.voice, 'settings.voice');
  const projectId = input.projectId ?? null;
  const insert = () =>
    queryRows<Parameters<typeof campaignDtoFromRow>[0]>(
      em,
      sql`insert into campaigns (id, organization_id, project_id, script_id, name, participant_title, description, status, settings, invite_defaults, metadata, archived_at, created_at, updated_at)
          select ${newId('cam')}, s.organization_id, ${projectId}, s.id, ${input.name}, ${input.participantTitle ?? null}, ${input.description ?? null}, 'active',
                 ${JSON.stringify(input.settings ?? {})}::jsonb, ${JSON.stringify(input.inviteDefaults ?? {})}::jsonb, ${JSON.stringify(input.metadata ?? {})}::jsonb,
                 null, now(), now()
          from scripts s
          where s.id = ${input.scriptId} and s.organization_id = ${organizationId} and s.deleted_at is null
            and s.status <> 'archived' and s.published_version is not null
            and (${projectId}::text is null or exists (select 1 from projects p where p.id = ${projectId} and p.organization_id = ${organizationId} for share))
          for share of s
          returning ${RETURNED}`,
    );
  const [row] = await insert();
  if (row) return campaignDtoFromRow(row);
  // Refused: the loaders throw the error that says why, in the order the checks were always made.
  await em.transactional(async (tx) => {
    if (projectId) await loadProjectForAssignment(tx, { organizationId }, { projectId });
    await loadUsableScript(tx, organizationId, input.scriptId);
  });
  // Usable now (it changed in between): once more.
  const [retried] = await insert();
  if (retried) return campaignDtoFromRow(retried);
  throw new AppError('SCRIPT_NOT_PUBLISHED', `Script ${input.scriptId} cannot be used by a campaign now; try again.`, {
    scriptId: input.scriptId,
    fields: [{ path: 'scriptId', message: 'is not usable' }],
  });
}
