import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { Permission } from '../../shared/permissions.js';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade').index(),
    name: p.string().columnType('text'),
    /** SHA-256 of the key (hex); the key itself is never stored. */
    keyHash: p.string().columnType('text').unique(),
    keyHint: p.string().columnType('text'),
    permissions: p.json<Permission[]>(),
    lastUsedAt: p.datetime(3).nullable(),
    expiresAt: p.datetime(3).nullable(),
    revokedAt: p.datetime(3).nullable(),
    ...timestampProperties,
  },
});

export type ApiKey = InferEntity<typeof ApiKey>;
