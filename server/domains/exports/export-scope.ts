import type { OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadCampaign } from '../campaigns/index.js';
import { loadProject } from '../projects/index.js';
import { projectExportCampaigns } from './queries.js';

export interface ExportCampaign {
  id: string;
  name: string;
  /** Its folder in a ZIP: the name in lower-case ASCII words, unique within the export. */
  slug: string;
  projectId: string | null;
  /** Whose campaign it is: the sessions an export reads are scoped to it. */
  organizationId: string;
}

/** What is exported: one campaign or one project. */
export type ExportTarget = { campaignId: string } | { projectId: string };

/** What an export covers: one campaign, or every campaign of a project. */
export interface ExportScope {
  type: 'campaign' | 'project';
  id: string;
  /** The campaign's or the project's name. */
  name: string;
  /** The download's name: the campaign's slug, or the project's name as one. */
  slug: string;
  organizationId: string;
  campaigns: ExportCampaign[];
}

/** Names Windows refuses for a file or folder, whatever the extension. */
const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])$/;

/** "Onboarding – Q3 (Ü)" → "onboarding-q3-u": readable folder names that every unzip tool accepts. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return WINDOWS_RESERVED.test(slug) ? `${slug}-campaign` : slug;
}

/** A name with no Latin letters or digits still gets a slug: its id. */
function slugOf(name: string, id: string): string {
  return slugify(name) || id.toLowerCase();
}

function uniqueSlugs(campaigns: Omit<ExportCampaign, 'slug'>[]): ExportCampaign[] {
  const taken = new Set<string>();
  return campaigns.map((campaign) => {
    const base = slugOf(campaign.name, campaign.id);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return { ...campaign, slug };
  });
}

/** The campaigns of a campaign or project export (404 for another organization's). */
export async function resolveExportScope({ em }: Pick<Deps, 'em'>, { organizationId }: OrganizationScope, target: ExportTarget): Promise<ExportScope> {
  let campaigns: Omit<ExportCampaign, 'slug'>[];
  let name: string;
  if ('campaignId' in target) {
    const campaign = await loadCampaign(em, { organizationId }, { campaignId: target.campaignId });
    campaigns = [{ id: campaign.id, name: campaign.name, projectId: campaign.project?.id ?? null, organizationId }];
    name = campaign.name;
  } else {
    const project = await loadProject(em, { organizationId }, { projectId: target.projectId });
    name = project.name;
    const rows = await projectExportCampaigns.rows(em, { organizationId, projectId: project.id });
    campaigns = rows.map((row) => ({ id: row.id, name: row.name, projectId: project.id, organizationId }));
  }
  const id = 'campaignId' in target ? target.campaignId : target.projectId;
  return {
    type: 'campaignId' in target ? 'campaign' : 'project',
    id,
    name,
    slug: slugOf(name, id),
    organizationId,
    campaigns: uniqueSlugs(campaigns),
  };
}
