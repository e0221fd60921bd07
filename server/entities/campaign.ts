import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { TCampaignSettings, TInviteDefaults } from '../../shared/schemas/campaigns.js';
import { CAMPAIGN_STATUSES } from '../../shared/schemas/campaigns.js';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';
import { Project } from './project.js';
import { Script } from './script.js';

export const Campaign = defineEntity({
  name: 'Campaign',
  tableName: 'campaigns',
  indexes: [
    { properties: ['organization', 'createdAt'] },
    { properties: ['organization', 'status'] },
    // One preview campaign per script: two previews started at once share it.
    {
      name: 'campaigns_preview_script_unique',
      expression: `create unique index "campaigns_preview_script_unique" on "campaigns" ("script_id") where "preview"`,
    },
  ],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    project: () => p.manyToOne(Project).nullable().deleteRule('set null').index(),
    script: () => p.manyToOne(Script).deleteRule('restrict').index(),
    name: p.string().columnType('text'),
    description: p.string().columnType('text').nullable(),
    /** The title participants see (invite email, interview page); null: `name`. */
    participantTitle: p.string().columnType('text').nullable(),
    /** A hidden campaign that runs a script's "Preview as participant"; never listed, never billed. */
    preview: p.boolean().default(false),
    status: p.enum([...CAMPAIGN_STATUSES]).default('active'),
    settings: p.json<TCampaignSettings>(),
    inviteDefaults: p.json<TInviteDefaults>(),
    metadata: p.json<Record<string, string | number | boolean>>(),
    archivedAt: p.datetime(3).nullable(),
    ...timestampProperties,
  },
});

export type Campaign = InferEntity<typeof Campaign>;
