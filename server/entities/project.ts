import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  indexes: [{ properties: ['organization', 'createdAt'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    name: p.string().columnType('text'),
    description: p.string().columnType('text').nullable(),
    color: p.string().columnType('text').nullable(),
    ...timestampProperties,
  },
});

export type Project = InferEntity<typeof Project>;
