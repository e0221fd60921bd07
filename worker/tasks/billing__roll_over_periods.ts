import type { Task } from 'graphile-worker';
import { rollOverBillingPeriods } from '../../server/domains/billing/roll-over-billing-periods.js';
import type { AppServices } from '../../server/services.js';

/** Cron (hourly): organizations enter the new billing period once, with their invoice and included credits. */
export function rollOverBillingPeriodsTask(services: AppServices): Task {
  return async () => {
    const result = await rollOverBillingPeriods({ em: services.orm.em.fork() });
    if (result.organizations > 0) services.logger.info(result, 'billing periods rolled over');
  };
}
