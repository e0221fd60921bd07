import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { SESSION_FILE_KINDS } from '../../shared/schemas/sessions.js';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';
import { Session } from './session.js';

/** A file of a session: an answer's audio, an upload (a screen recording), later merged audio and exports. */
export const SessionFile = defineEntity({
  name: 'SessionFile',
  tableName: 'session_files',
  indexes: [{ properties: ['session', 'createdAt'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade').index(),
    session: () => p.manyToOne(Session).deleteRule('cascade'),
    kind: p.enum([...SESSION_FILE_KINDS]),
    name: p.string().columnType('text'),
    contentType: p.string().columnType('text'),
    sizeBytes: p.bigint('number'),
    durationSeconds: p.float().columnType('double precision').nullable(),
    sha256: p.string().columnType('text'),
    storageKey: p.string().columnType('text'),
    ...timestampProperties,
  },
});

export type SessionFile = InferEntity<typeof SessionFile>;
