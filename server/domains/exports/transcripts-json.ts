import type { Deps } from '../common/deps.js';
import type { ExportCampaign, ExportScope } from './export-scope.js';
import { exportedSessions, type TranscriptOptions } from './exported-sessions.js';

/**
 * One JSON document of the sessions of some campaigns, written piece by piece:
 * `{exportedAt, scope, redacted, campaigns: [...], sessions: [...]}`, one session per line.
 */
export async function* transcriptsJson(
  deps: Pick<Deps, 'em'>,
  { scope, campaigns, ...options }: { scope: ExportScope; campaigns: ExportCampaign[] } & TranscriptOptions,
): AsyncGenerator<string> {
  const head = {
    exportedAt: new Date().toISOString(),
    scope: { type: scope.type, id: scope.id },
    // Whether any kind was redacted (redact_pii, redact_kinds or both).
    redacted: options.redactKinds.length > 0,
    campaigns: campaigns.map((campaign) => ({ id: campaign.id, name: campaign.name, slug: campaign.slug, projectId: campaign.projectId })),
  };
  yield `${JSON.stringify(head).slice(0, -1)},"sessions":[`;
  let first = true;
  for (const campaign of campaigns) {
    for await (const session of exportedSessions(deps, { campaign, ...options })) {
      yield `${first ? '' : ','}\n${JSON.stringify(session)}`;
      first = false;
    }
  }
  yield '\n]}\n';
}
