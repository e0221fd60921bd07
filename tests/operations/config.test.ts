import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

describe('configuration', () => {
  it('has working defaults for the embedded quick start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('.data'),
      databaseUrl: undefined,
      jsonBodyLimitBytes: 1024 * 1024,
      mediaMaxImageBytes: 10 * 1024 * 1024,
      mediaMaxAudioBytes: 50 * 1024 * 1024,
      trustProxy: false,
    });
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://interviews.example.com/' }).publicUrl).toBe('https://interviews.example.com');
  });

  it.each([
    ['false', false],
    ['true', 1],
    ['2', 2],
    ['loopback, 10.0.0.0/8', ['loopback', '10.0.0.0/8']],
  ])('TRUST_PROXY=%s never trusts every hop', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('reads sizes such as 512kb', () => {
    expect(loadConfig({ JSON_BODY_LIMIT: '512kb' }).jsonBodyLimitBytes).toBe(512 * 1024);
  });

  it('names every invalid variable', () => {
    const load = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JSON_BODY_LIMIT: 'huge' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/PORT/);
    expect(load).toThrow(/DATABASE_URL/);
    expect(load).toThrow(/JSON_BODY_LIMIT/);
  });
});
