/** What other domains may use of billing: everything else here is the domain's own. */
export { billingPeriodOf } from './billing-period.js';
export { type BookedMovement, bookCreditMovement, type CreditMovement } from './book-credit-movement.js';
export { loadInvoice } from './list-invoices.js';
export { roundCredits } from './serialize.js';
export { settleOwedCredits } from './settle-owed-credits.js';
