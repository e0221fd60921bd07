import { p } from '@mikro-orm/core';

/** Every record carries creation and update times (timestamptz, millisecond precision). */
export const timestampProperties = {
  createdAt: p.datetime(3).onCreate(() => new Date()),
  updatedAt: p
    .datetime(3)
    .onCreate(() => new Date())
    .onUpdate(() => new Date()),
};

