import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../../errors.js';
import { collectionNamed, savedSearchNamed } from './queries.js';

/** Records whose names are unique per organization, ignoring case, and how to find one by name. */
const RECORD_NAMED = { collection: collectionNamed, 'saved search': savedSearchNamed } as const;
export type NamedKind = keyof typeof RECORD_NAMED;

/** 409 NAME_TAKEN, naming the organization's record that has the name (looked up, ignoring case). */
export async function nameTaken(em: EntityManager, kind: NamedKind, organizationId: string, name: string): Promise<AppError> {
  const existing = await RECORD_NAMED[kind].first(em, { organizationId, name });
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
