import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptMedia } from '../../server/entities/index.js';
import { createLogger } from '../../server/logger.js';
import { silentWav } from '../helpers/audio.js';
import { apiAs, createScript, type Api } from '../helpers/factories.js';
import { interviewFixture, participantAs } from '../helpers/interviews.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';
import { PNG } from '../helpers/images.js';

let t: TestApp;
let tenant: TestTenant;
let api: Api;

beforeAll(async () => {
  t = await startTestApp({ MEDIA_MAX_IMAGE_BYTES: '2kb', MEDIA_MAX_AUDIO_BYTES: '64kb' });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});
afterAll(() => t?.close());

function upload(scriptId: string, file: Buffer | undefined, filename: string, fields: Record<string, string> = {}) {
  let request = t.http.post(`/v1/scripts/${scriptId}/media`).set('Authorization', tenant.authorization);
  for (const [name, value] of Object.entries(fields)) request = request.field(name, value);
  if (file) request = request.attach('file', file, filename);
  return request;
}

describe('script media', () => {
  it('an image upload answers 201 and its signed link returns the same bytes', async () => {
    const script = await createScript(api);
    const response = await upload(script.id, PNG, 'welcome.png', { questionId: 'q1' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^fil_/),
      scriptId: script.id,
      questionId: 'q1',
      kind: 'image',
      contentType: 'image/png',
      filename: 'welcome.png',
      alt: null,
      size: PNG.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/files\/[\w-]+\.[\w-]+\.[\w-]+$/),
      urlExpiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    const expiresIn = Date.parse(response.body.urlExpiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(3500_000);
    expect(expiresIn).toBeLessThanOrEqual(3600_000);

    const download = await t.http
      .get(new URL(response.body.url).pathname)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(download.body as Buffer, PNG)).toBe(0);
  });

  it('the type comes from the content: a WAV named .png is stored as audio/wav', async () => {
    const script = await createScript(api);
    const response = await upload(script.id, silentWav(100), 'misnamed.png');
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ kind: 'audio', contentType: 'audio/wav' });
  });

  it('a text file answers 422 VALIDATION_ERROR and nothing is stored', async () => {
    const script = await createScript(api);
    const before = await t.em().count(ScriptMedia, {});
    const response = await upload(script.id, Buffer.from('just some text, not media'), 'notes.png');
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields[0].path).toBe('file');
    expect(await t.em().count(ScriptMedia, {})).toBe(before);
  });

  it('an image over the image limit answers 413 PAYLOAD_TOO_LARGE', async () => {
    const script = await createScript(api);
    const bigPng = Buffer.concat([PNG, Buffer.alloc(4096)]);
    const response = await upload(script.id, bigPng, 'big.png');
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { kind: 'image', limitBytes: 2048 } });
  });

  it('a file over every limit answers 413 while uploading and leaves no temporary file', async () => {
    const script = await createScript(api);
    const response = await upload(script.id, silentWav(64 * 1024), 'long.wav');
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await readdir(path.join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
  });

  it('a request without a file answers 400 naming the file field', async () => {
    const script = await createScript(api);
    const multipart = await upload(script.id, undefined, '', { questionId: 'q1' });
    expect(multipart.status).toBe(400);
    expect(multipart.body.error.details.fields).toEqual([{ path: 'file', message: 'is required' }]);
    // Not multipart at all: the body is in a format the operation does not take.
    const json = await api.post(`/v1/scripts/${script.id}/media`, { file: 'nope' });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('an unknown questionId answers 422', async () => {
    const script = await createScript(api);
    const response = await upload(script.id, PNG, 'x.png', { questionId: 'nope' });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields[0].path).toBe('questionId');
  });

  it("another organization's script answers 404", async () => {
    const other = apiAs(t.http, await t.createTenant());
    const foreign = await createScript(other);
    const response = await upload(foreign.id, PNG, 'x.png');
    expect(response.status).toBe(404);
  });

  it('media can be listed and deleted; a deleted file link answers 404', async () => {
    const script = await createScript(api);
    const first = await upload(script.id, PNG, 'one.png').expect(201);
    await upload(script.id, silentWav(10), 'two.wav').expect(201);
    const list = await api.get(`/v1/scripts/${script.id}/media`).expect(200);
    expect(list.body.pagination.total).toBe(2);
    expect(list.body.data.map((m: { filename: string }) => m.filename)).toEqual(['two.wav', 'one.png']);

    await api.delete(`/v1/scripts/${script.id}/media/${first.body.id}`).expect(204);
    await t.http.get(new URL(first.body.url).pathname).expect(404);
    await api.delete(`/v1/scripts/${script.id}/media/${first.body.id}`).expect(404);
  });

  it('a link to a file gone from storage answers 404 that no cache keeps; a working one may be kept 5 minutes', async () => {
    const script = await createScript(api);
    const uploaded = await upload(script.id, PNG, 'x.png').expect(201);
    const link = new URL(uploaded.body.url).pathname;
    expect((await t.http.get(link).expect(200)).headers['cache-control']).toBe('private, max-age=300');
    const [row] = await t.em().execute<{ storage_key: string }[]>(`select storage_key from script_media where id = ?`, [uploaded.body.id]);
    await t.runtime.services.storage.delete(row!.storage_key);
    const gone = await t.http.get(link).expect(404);
    expect(gone.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect(gone.headers['cache-control'] ?? '').not.toContain('max-age');
  });

  it('a forged or tampered link answers 404', async () => {
    const script = await createScript(api);
    const uploaded = await upload(script.id, PNG, 'x.png').expect(201);
    const token = new URL(uploaded.body.url).pathname.split('/').pop()!;
    const [header, payload] = token.split('.');
    await t.http.get(`/files/${header}.${payload}.AAAA`).expect(404);
    await t.http.get('/files/not-a-token').expect(404);
  });

  it('an archived script refuses uploads with 409 SCRIPT_ARCHIVED', async () => {
    const script = await createScript(api);
    await api.post(`/v1/scripts/${script.id}/archive`).expect(200);
    const response = await upload(script.id, PNG, 'x.png');
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('SCRIPT_ARCHIVED');
  });
});

describe('an upload the server cannot store', () => {
  let broken: TestApp;
  let brokenApi: Api;
  let brokenTenant: TestTenant;
  const logLines: string[] = [];
  const errorLines = (requestId: string) =>
    logLines.map((line) => JSON.parse(line) as Record<string, any>).filter((line) => line.requestId === requestId && line.level >= 50);
  const served = async (route: string, status: number): Promise<number> => {
    const text = (await broken.http.get('/metrics').expect(200)).text;
    const pattern = new RegExp(`^http_requests_total\\{method="POST",route="${route.replace(/[{}/]/g, '\\$&')}",status="${status}"\\} (\\d+)$`, 'm');
    return Number(pattern.exec(text)?.[1] ?? 0);
  };

  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _encoding, done) => (logLines.push(String(chunk)), done()) });
    broken = await startTestApp({}, createLogger('info', sink));
    brokenTenant = await broken.createTenant();
    brokenApi = apiAs(broken.http, brokenTenant);
  });
  afterAll(() => broken?.close());

  it("a malformed multipart body is still the client's 400, and no server error is logged", async () => {
    const script = await createScript(brokenApi);
    const response = await broken.http
      .post(`/v1/scripts/${script.id}/media`)
      .set('Authorization', brokenTenant.authorization)
      .set('X-Request-Id', 'malformed-multipart')
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nhalf a file');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
    expect(errorLines('malformed-multipart')).toEqual([]);
  });

  it('DATA_DIR/tmp failing (here: not a directory) is 500 INTERNAL_ERROR, logged with its cause and counted, for script media and session files', async () => {
    const script = await createScript(brokenApi);
    const { invite } = await interviewFixture(brokenApi);
    const sessionId: string = (await participantAs(broken.http, invite.token).start().expect(201)).body.session.id;
    // Where uploads are streamed to is a regular file now: every write below it fails (ENOTDIR), as a full disk fails with ENOSPC.
    const uploads = path.join(broken.dataDir, 'tmp', 'uploads');
    await rm(uploads, { recursive: true, force: true });
    await writeFile(uploads, 'not a directory');
    try {
      for (const [route, url, requestId] of [
        ['/v1/scripts/{scriptId}/media', `/v1/scripts/${script.id}/media`, 'media-upload-disk-fault'],
        ['/v1/sessions/{sessionId}/files', `/v1/sessions/${sessionId}/files`, 'session-file-disk-fault'],
      ] as const) {
        const before = await served(route, 500);
        const response = await broken.http
          .post(url)
          .set('Authorization', brokenTenant.authorization)
          .set('X-Request-Id', requestId)
          .attach('file', PNG, 'welcome.png');
        expect(response.status, JSON.stringify(response.body)).toBe(500);
        expect(response.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: expect.any(String), details: {}, requestId } });
        const [logged, ...more] = errorLines(requestId);
        expect(more).toEqual([]);
        expect(logged, 'the fault is logged at error').toMatchObject({ msg: 'unexpected error', route });
        expect(JSON.stringify(logged?.err), 'with its cause').toContain('ENOTDIR');
        expect(await served(route, 500)).toBe(before + 1);
      }
    } finally {
      await rm(uploads, { force: true });
    }
  });
});
