import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { queryRows, rawSql, sql } from '../../db/sql.js';
import { AppError } from '../../errors.js';

/** Records whose names are unique per organization, ignoring case, and their tables. */
const NAMED_TABLES = { collection: 'collections', 'saved search': 'saved_searches' } as const;
export type NamedKind = keyof typeof NAMED_TABLES;

/** 409 NAME_TAKEN, naming the organization's record that has the name (looked up, ignoring case). */
export async function nameTaken(em: EntityManager, kind: NamedKind, organizationId: string, name: string): Promise<AppError> {
  const [existing] = await queryRows<{ id: string }>(
    em,
    sql`select id from ${rawSql(NAMED_TABLES[kind])} where organization_id = ${organizationId} and lower(name) = lower(${name})`,
  );
  return new AppError('NAME_TAKEN', `The organization already has a ${kind} named "${name}" (names are unique, ignoring case).`, {
    ...(existing ? { existingId: existing.id } : {}),
    fields: [{ path: 'name', message: `is already the name of another ${kind}` }],
  });
}

/** Runs a write that may break the organization's unique name, answering NAME_TAKEN instead of the driver's error. */
export async function withUniqueName<T>(write: () => Promise<T>, conflict: () => Promise<AppError>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw await conflict();
    throw error;
  }
}
