import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TQuestion, TScriptSettings } from '../../../shared/schemas/scripts.js';
import { Session, ScriptVersion } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import type { OrganizationScope } from '../common/caller.js';

/** The scope's organization's session or 404 (another organization's included). */
export async function loadSession(
  em: EntityManager,
  scope: OrganizationScope,
  input: { sessionId: string },
  options: { lockMode?: LockMode } = {},
): Promise<Session> {
  const { sessionId } = input;
  const session = await em.findOne(
    Session,
    { id: sessionId, organization: scope.organizationId },
    options.lockMode ? { lockMode: options.lockMode, refresh: true } : {},
  );
  if (!session) throw notFound('session', sessionId);
  return session;
}

/** The interview content a session follows: the script version pinned at its start. */
export interface InterviewPlan {
  systemPrompt: string;
  questions: TQuestion[];
  settings: TScriptSettings;
}

/**
 * Pinned versions are published, and a published version never changes: kept per process once
 * read (bounded; the oldest entry goes first), so a turn does not read its script again.
 */
const PLAN_CACHE_SIZE = 500;
const plans = new Map<string, InterviewPlan>();

export async function loadPlan(em: EntityManager, session: Pick<Session, 'scriptId' | 'scriptVersion'>): Promise<InterviewPlan> {
  const key = `${session.scriptId}:${session.scriptVersion}`;
  const cached = plans.get(key);
  if (cached) return cached;
  const version = await em.findOneOrFail(ScriptVersion, { script: session.scriptId, version: session.scriptVersion }, { disableIdentityMap: true });
  const plan = { systemPrompt: version.systemPrompt, questions: version.questions, settings: version.settings };
  if (version.status === 'published') {
    if (plans.size >= PLAN_CACHE_SIZE) plans.delete(plans.keys().next().value!);
    plans.set(key, plan);
  }
  return plan;
}

/** 409 SESSION_NOT_ACTIVE: the session's state does not allow the action (the spec's table). */
export function sessionNotActive(session: Pick<Session, 'id' | 'status'>, action: string): AppError {
  return new AppError('SESSION_NOT_ACTIVE', `Session ${session.id} is ${session.status}; it cannot be ${action}.`, {
    sessionId: session.id,
    status: session.status,
  });
}
