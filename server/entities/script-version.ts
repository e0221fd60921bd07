import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { TQuestion, TScriptSettings } from '../../shared/schemas/scripts.js';
import { Script } from './script.js';

/** One immutable-once-published version of a script's interview content. */
export const ScriptVersion = defineEntity({
  name: 'ScriptVersion',
  tableName: 'script_versions',
  uniques: [{ properties: ['script', 'version'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    script: () => p.manyToOne(Script).deleteRule('cascade'),
    version: p.integer(),
    status: p.enum(['draft', 'published'] as const).default('draft'),
    changelog: p.string().columnType('text').nullable(),
    systemPrompt: p.string().columnType('text'),
    questions: p.json<TQuestion[]>(),
    settings: p.json<TScriptSettings>(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    publishedAt: p.datetime(3).nullable(),
  },
});

export type ScriptVersion = InferEntity<typeof ScriptVersion>;
