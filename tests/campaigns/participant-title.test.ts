import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs, createCampaign, createInvite, createShareLink, uniqueName } from '../helpers/factories.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { type MailSink, startMailSink } from '../helpers/members.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What participants see a campaign called (issue 31): its participant title when it has one,
 * never the internal name the research team gave it; its name when it has none.
 */

let t: TestApp;
let mail: MailSink;
let api: Api;

beforeAll(async () => {
  mail = await startMailSink();
  t = await startTestApp({ SMTP_URL: mail.url, EMAIL_FROM: 'Research <research@example.com>' });
  api = apiAs(t.http, await t.createTenant());
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

/** A campaign with an internal name and, set as the dashboard sets it, the title participants see. */
async function titledCampaign(participantTitle: string | null) {
  const internal = uniqueName('Q3 churn cohort B (internal)');
  const campaign = await createCampaign(api, { name: internal });
  await t.em().execute(`update campaigns set participant_title = ? where id = ?`, [participantTitle, campaign.id]);
  return { campaign, internal };
}

describe('the participant title', () => {
  it('titles the interview page, and the page never shows the internal name', async () => {
    const { campaign, internal } = await titledCampaign('Tell us about your first week');
    const invite = await createInvite(api, campaign.id, { email: 'ada@example.com', sendEmail: false });
    const page = await t.http.get(`/interview/${invite.token}`).expect(200);
    expect(page.text).toContain('<title>Tell us about your first week</title>');
    expect(page.text).toContain('<h1>Tell us about your first week</h1>');
    expect(page.text).toContain('"campaignName":"Tell us about your first week"');
    expect(page.text).not.toContain(internal);
    const embed = await t.http.get(`/embed?invite=${invite.token}`).expect(200);
    expect(embed.text).toContain('"campaignName":"Tell us about your first week"');
    expect(embed.text).not.toContain(internal);
  });

  it("titles the closed pages: a paused campaign's invite page and its share link", async () => {
    const { campaign, internal } = await titledCampaign('Your feedback on billing');
    const invite = await createInvite(api, campaign.id, { email: 'grace@example.com', sendEmail: false });
    const link = await createShareLink(api, campaign.id);
    await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    const closed = await t.http.get(`/interview/${invite.token}`).expect(409);
    expect(closed.text).toContain('<h1>Your feedback on billing</h1>');
    expect(closed.text).not.toContain(internal);
    const joined = await t.http.get(`/join/${link.code}`).expect(409);
    expect(joined.text).toContain('<h1>Your feedback on billing</h1>');
    expect(joined.text).not.toContain(internal);
  });

  it('is the campaign in the invitation email', async () => {
    const { campaign, internal } = await titledCampaign('A short chat about reports');
    const address = `${uniqueName('p').replace(' ', '-')}@example.com`;
    await createInvite(api, campaign.id, { email: address, sendEmail: true });
    await runJobsOnce(t, { tasks: ['invite__send_email'] });
    const message = mail.delivered.findLast((delivered) => delivered.to.includes(address));
    expect(message).toBeDefined();
    const everything = `${message!.email.subject}\n${message!.email.text}\n${message!.email.html}`;
    expect(everything).toContain('A short chat about reports');
    expect(everything).not.toContain(internal);
  });

  it('is the campaign name when no title is set', async () => {
    const { campaign, internal } = await titledCampaign(null);
    const invite = await createInvite(api, campaign.id, { email: 'alan@example.com', sendEmail: false });
    const page = await t.http.get(`/interview/${invite.token}`).expect(200);
    expect(page.text).toContain(`<h1>${internal}</h1>`);
  });
});
