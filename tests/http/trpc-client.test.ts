import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../server/trpc/app-router.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

let t: TestApp;
let server: Server;
let tenant: TestTenant;
let client: ReturnType<typeof createTRPCClient<AppRouter>>;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  client = createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `http://127.0.0.1:${port}/trpc`, headers: { Authorization: tenant.authorization } })],
  });
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

describe('first-party tRPC client', () => {
  it('calls procedures typed end to end through AppRouter, batched', async () => {
    const [project, script] = await Promise.all([
      client.projects.create.mutate({ name: 'Typed project' }),
      client.scripts.create.mutate({
        name: 'Typed script',
        systemPrompt: 'Interview kindly.',
        questions: [{ id: 'q1', text: 'Why?', type: 'open' }],
      }),
    ]);
    expect(project.campaignCount).toBe(0);
    expect(script.questions[0]!.required).toBe(true);
    const published = await client.scripts.publish.mutate({ scriptId: script.id });
    const campaign = await client.campaigns.create.mutate({ name: 'Typed', scriptId: published.id, projectId: project.id });
    const page = await client.campaigns.list.query({ projectId: project.id, limit: 5, offset: 0, sort: 'createdAt', order: 'desc' });
    expect(page.data.map((c) => c.id)).toEqual([campaign.id]);
  });

  it('errors carry the app code for the client', async () => {
    const error = await client.campaigns.get.query({ campaignId: 'cam_missing' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
  });

  it("a 422 is tRPC's UNPROCESSABLE_CONTENT, with the field in details", async () => {
    const error = await client.projects.create.mutate({ name: 'Bad color', color: 'blue' }).catch((e: unknown) => e);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
      code: 'UNPROCESSABLE_CONTENT',
      httpStatus: 422,
      appCode: 'VALIDATION_ERROR',
      details: { fields: [{ path: 'color' }] },
    });
  });
});
