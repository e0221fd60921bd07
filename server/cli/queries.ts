import { defineQuery } from '../db/query.js';
import { sql } from '../db/sql.js';

/** The admin CLI's own statements (admin-cli.ts). */

/** Sets (or, with null, clears) the payment provider's customer of an organization; no row: no such organization. */
export const setPaymentCustomer = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, customer }: { organizationId: string; customer: string | null }) =>
    sql`update organizations set payment_customer_id = ${customer}, updated_at = now() where id = ${organizationId} returning id`,
  example: { organizationId: 'org_example', customer: 'cus_example' as string | null },
});
