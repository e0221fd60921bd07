import { p } from '@mikro-orm/core';

/**
 * Every record carries creation and update times (timestamptz, millisecond precision). A new
 * record's two times are one reading of the clock, whichever is filled first: read twice, they
 * could differ by a millisecond, and a record just created would look updated.
 */
export const timestampProperties = {
  createdAt: p.datetime(3).onCreate((entity: { updatedAt?: Date }) => entity.updatedAt ?? new Date()),
  updatedAt: p
    .datetime(3)
    .onCreate((entity: { createdAt?: Date }) => entity.createdAt ?? new Date())
    .onUpdate(() => new Date()),
};
