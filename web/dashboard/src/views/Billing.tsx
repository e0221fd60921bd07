import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { BarChart } from '../charts';
import { useTRPC } from '../trpc';
import { ErrorNote, formatDate, formatDateTime, Loading, PageHeading } from '../ui';
import { countOf } from '../words';

function money(minor: number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
}

export function BillingView() {
  const trpc = useTRPC();
  const range = useMemo(() => {
    const to = new Date();
    to.setUTCHours(0, 0, 0, 0);
    to.setUTCDate(to.getUTCDate() + 1);
    return { from: new Date(to.getTime() - 30 * 86_400_000).toISOString(), to: to.toISOString() };
  }, []);
  const plan = useQuery(trpc.billing.plan.queryOptions({}));
  const usage = useQuery(trpc.billing.usage.queryOptions({ ...range, group_by: 'day' }));
  const invoices = useQuery(trpc.billing.invoices.queryOptions({ limit: 50 }));
  const download = useMutation(trpc.workspace.invoiceDownload.mutationOptions({ onSuccess: (link) => window.location.assign(link.url) }));

  return (
    <>
      <PageHeading title="Billing" />
      <ErrorNote error={plan.error} />
      {plan.data ? (
        <dl className="stats">
          <div>
            <dt>Plan</dt>
            <dd>
              {plan.data.plan}
              {plan.data.status === 'past_due' ? ' (past due: an invoice is open)' : ''}
            </dd>
          </div>
          <div>
            <dt>Credit balance</dt>
            <dd>{plan.data.credits.balance}</dd>
          </div>
          <div>
            <dt>Used this period</dt>
            <dd>{countOf(plan.data.credits.used, 'credit')}</dd>
          </div>
          <div>
            <dt>Free minutes</dt>
            <dd>
              {plan.data.freeMinutes.used} of {plan.data.freeMinutes.included}
            </dd>
          </div>
          <div>
            <dt>Next invoice</dt>
            <dd>
              {formatDate(plan.data.nextInvoice.date)}: {money(plan.data.nextInvoice.amount, plan.data.nextInvoice.currency)}
            </dd>
          </div>
        </dl>
      ) : (
        !plan.error && <Loading />
      )}

      <section aria-labelledby="usage-title">
        <h2 id="usage-title">Usage, last 30 days</h2>
        <ErrorNote error={usage.error} />
        {usage.data && (
          <>
            <p>
              {countOf(usage.data.totals.sessions, 'interview')}, {countOf(usage.data.totals.minutes, 'minute')}, {countOf(usage.data.totals.credits, 'credit')}
              .
            </p>
            <BarChart
              title="Interview minutes per day"
              bars={usage.data.rows
                .filter((row) => row.minutes > 0 || row.sessions > 0)
                .map((row) => ({ label: formatDate(row.period), value: row.minutes, display: `${row.minutes} min` }))}
            />
            {usage.data.rows.every((row) => row.minutes === 0 && row.sessions === 0) && <p className="muted">No interviews in these 30 days.</p>}
          </>
        )}
      </section>

      <section aria-labelledby="invoices-title">
        <h2 id="invoices-title">Invoices</h2>
        <ErrorNote error={invoices.error ?? download.error} />
        {invoices.data?.data.length === 0 && <p className="muted">No invoices yet.</p>}
        {invoices.data && invoices.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Invoices, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                  <th scope="col">Issued</th>
                  <th scope="col">PDF</th>
                </tr>
              </thead>
              <tbody>
                {invoices.data.data.map((invoice) => (
                  <tr key={invoice.id}>
                    <th scope="row" className="mono">
                      {invoice.number}
                    </th>
                    <td>{invoice.kind}</td>
                    <td>{invoice.status}</td>
                    <td className="num">{money(invoice.amount, invoice.currency)}</td>
                    <td>{formatDateTime(invoice.issuedAt)}</td>
                    <td>
                      <button type="button" className="link" onClick={() => download.mutate({ invoiceId: invoice.id })}>
                        Download<span className="visually-hidden"> {invoice.number}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
