import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { SCRIPT_STATUSES } from '../../shared/schemas/scripts.js';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';
import { Project } from './project.js';

/**
 * A script's identity and state. Its interview content (system prompt, questions, settings)
 * lives in ScriptVersion rows; `latestVersion` is the newest one, `publishedVersion` the one
 * campaigns use. Deleted scripts keep their row (`deletedAt`) so sessions that pinned a
 * version stay readable.
 */
export const Script = defineEntity({
  name: 'Script',
  tableName: 'scripts',
  indexes: [{ properties: ['organization', 'createdAt'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    project: () => p.manyToOne(Project).nullable().deleteRule('set null').index(),
    name: p.string().columnType('text'),
    description: p.string().columnType('text').nullable(),
    status: p.enum([...SCRIPT_STATUSES]).default('draft'),
    latestVersion: p.integer().default(1),
    publishedVersion: p.integer().nullable(),
    publishedAt: p.datetime(3).nullable(),
    archivedAt: p.datetime(3).nullable(),
    deletedAt: p.datetime(3).nullable(),
    ...timestampProperties,
  },
});

export type Script = InferEntity<typeof Script>;
