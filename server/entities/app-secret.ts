import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Process-independent secrets generated once per database (e.g. the URL-signing key). */
export const AppSecret = defineEntity({
  name: 'AppSecret',
  tableName: 'app_secrets',
  properties: {
    name: p.string().primary().columnType('text'),
    value: p.string().columnType('text'),
    createdAt: p.datetime(3).onCreate(() => new Date()),
  },
});

export type AppSecret = InferEntity<typeof AppSecret>;
