import { generate } from 'selfsigned';

/** A throwaway server certificate (PEM) for loopback HTTPS servers in tests; clients trust it as a CA. */
export interface TestCertificate {
  cert: string;
  key: string;
}

/** Valid for localhost, 127.0.0.1 and ::1, plus any extra DNS names given. */
export async function makeTestCertificate(extraNames: string[] = []): Promise<TestCertificate> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2 as const, value: 'localhost' },
          ...extraNames.map((value) => ({ type: 2 as const, value })),
          { type: 7 as const, ip: '127.0.0.1' },
          { type: 7 as const, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
