import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { MEDIA_KINDS } from '../../shared/schemas/scripts.js';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';
import { Script } from './script.js';

/** An image or audio file attached to a script (optionally to one of its questions). */
export const ScriptMedia = defineEntity({
  name: 'ScriptMedia',
  tableName: 'script_media',
  indexes: [{ properties: ['script', 'createdAt'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade').index(),
    script: () => p.manyToOne(Script).deleteRule('cascade'),
    questionId: p.string().columnType('text').nullable(),
    kind: p.enum([...MEDIA_KINDS]),
    contentType: p.string().columnType('text'),
    filename: p.string().columnType('text'),
    /** Text alternative shown with the question (null: none given, as uploads before it could not). */
    alt: p.string().columnType('text').nullable(),
    sizeBytes: p.bigint('number'),
    sha256: p.string().columnType('text'),
    storageKey: p.string().columnType('text'),
    ...timestampProperties,
  },
});

export type ScriptMedia = InferEntity<typeof ScriptMedia>;
