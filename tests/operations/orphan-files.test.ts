import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanFiles } from '../../server/storage/sweep-orphan-files.js';
import { wav } from '../helpers/audio.js';
import { apiAs, createScript } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The daily sweep: stored files no record names (a request killed before its commit) go; everything recorded stays. */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of t.runtime.services.storage.list()) keys.push(key);
  return keys.sort();
}

describe('maintenance__sweep_orphan_files', () => {
  it('deletes files without a record once they are old enough, and keeps recorded and recent ones', async () => {
    const tenant = await t.createTenant();
    const script = await createScript(apiAs(t.http, tenant));
    const media = await t.http
      .post(`/v1/scripts/${script.id}/media`)
      .set('Authorization', tenant.authorization)
      .attach('file', wav(0.5), 'intro.wav')
      .expect(201);
    const [row] = await t.em().execute<{ storage_key: string }[]>('select storage_key from script_media where id = ?', [media.body.id]);
    const storage = t.runtime.services.storage;
    const orphans = [`sessions/${tenant.organizationId}/ses_gone/fil_1`, `script-media/${tenant.organizationId}/fil_gone`];
    for (const key of orphans) await storage.put(key, Readable.from([Buffer.from('left behind')]));
    // Not a record's file at all: not the sweep's to judge.
    await storage.put('other/notes.txt', Readable.from([Buffer.from('x')]));

    // Too recent: nothing goes (a record may still be committing).
    expect(await sweepOrphanFiles(t.em(), storage, new Date(Date.now() - 60_000))).toEqual({ checked: 0, deleted: [] });
    const swept = await sweepOrphanFiles(t.em(), storage, new Date(Date.now() + 60_000));
    expect(swept.checked).toBe(3);
    expect(swept.deleted.sort()).toEqual([...orphans].sort());
    expect(await storedKeys()).toEqual(['other/notes.txt', row!.storage_key].sort());
    await t.http.get(new URL(media.body.url).pathname).expect(200);
  });
});
