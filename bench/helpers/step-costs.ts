import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Session } from '../../server/entities/index.js';
import { findInviteCredential } from '../../server/domains/invites/find-invite-by-token.js';
import { readAnswerContext } from '../../server/domains/sessions/answer-interview.js';
import { loadPlan } from '../../server/domains/sessions/load-session.js';
import { consumeRateLimit } from '../../server/platform/rate-limit.js';

export interface StepCost {
  step: string;
  /** Statements the step sends; how many times an answer turn runs it. */
  statements: number;
  perTurn: number;
  /** Mean wall and CPU (this process: ORM, driver) per call, one call at a time on an idle machine. */
  wallMs: number;
  cpuMs: number;
}

/**
 * The reads an answer turn makes, each run alone and timed, on a fresh EntityManager fork per
 * call as a request has: what each costs the server's one thread, so the costly ones can be
 * priced. `token`'s invite must have an interview in progress.
 */
export async function measureStepCosts(fork: () => EntityManager, token: string, calls = 200): Promise<StepCost[]> {
  const invite = (await findInviteCredential({ em: fork() }, { token }))!;
  const { session } = (await readAnswerContext(fork(), invite.id, false))!;
  const steps: { step: string; statements: number; perTurn: number; run: (em: EntityManager) => Promise<unknown> }[] = [
    { step: 'invite credential (findInviteCredential)', statements: 1, perTurn: 1, run: (em) => findInviteCredential({ em }, { token }) },
    { step: 'rate-limit upsert (consumeRateLimit)', statements: 1, perTurn: 1, run: (em) => consumeRateLimit(em, `bench-step:${invite.id}`, 1_000_000) },
    { step: 'session, turns, media (readAnswerContext)', statements: 1, perTurn: 1, run: (em) => readAnswerContext(em, invite.id, false) },
    { step: 'script version (loadPlan, cached)', statements: 0, perTurn: 1, run: (em) => loadPlan(em, session) },
    {
      // The closing turn's path (and a turn whose session moved on): the common turn takes no lock.
      step: 'session locked through the ORM (the closing turn only)',
      statements: 3,
      perTurn: 1,
      run: (em) => em.transactional((tx) => tx.findOneOrFail(Session, session.id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })),
    },
  ];
  const costs: StepCost[] = [];
  for (const { step, statements, perTurn, run } of steps) {
    for (let i = 0; i < 20; i += 1) await run(fork());
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) await run(fork());
    const wall = (performance.now() - started) / calls;
    const used = process.cpuUsage(cpu);
    costs.push({ step, statements, perTurn, wallMs: Math.round(wall * 100) / 100, cpuMs: Math.round(((used.user + used.system) / 1000 / calls) * 100) / 100 });
  }
  return costs;
}
