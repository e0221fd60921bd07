import { type Request, type Response, Router } from 'express';

/** The service's icon: a speech bubble in the dashboard's blue. Pages link to it (`FAVICON_LINK`). */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M8 9h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-9l-5 4v-4H8a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2z" fill="#fff"/></svg>
`;

/** The `<link>` every HTML page of the service carries, so no browser asks for a missing icon. */
export const FAVICON_LINK = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';

/**
 * `/favicon.ico` for the browsers and tools that ask for it whatever a page links: a 16×16
 * icon of the same blue square (32-bit BMP inside an ICO, written here so no binary file is kept).
 */
function icoBytes(): Buffer {
  const size = 16;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Rounded corners: the four corner pixels stay transparent.
      const corner = (x === 0 || x === size - 1) && (y === 0 || y === size - 1);
      // A white bubble in the middle rows (BMP rows run bottom-up).
      const bubble = x >= 3 && x <= 12 && y >= 5 && y <= 11;
      const offset = (y * size + x) * 4;
      const [b, g, r] = bubble ? [255, 255, 255] : [0xd8, 0x4e, 0x1d];
      pixels.writeUInt8(b, offset);
      pixels.writeUInt8(g, offset + 1);
      pixels.writeUInt8(r, offset + 2);
      pixels.writeUInt8(corner ? 0 : 255, offset + 3);
    }
  }
  const mask = Buffer.alloc(size * 4); // 1 bit a pixel, rows padded to 32 bits: all 0 (the alpha channel decides)
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // colour and mask stacked
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const directory = Buffer.alloc(6 + 16);
  directory.writeUInt16LE(0, 0);
  directory.writeUInt16LE(1, 2); // an icon
  directory.writeUInt16LE(1, 4); // one image
  directory.writeUInt8(size, 6);
  directory.writeUInt8(size, 7);
  directory.writeUInt16LE(1, 10);
  directory.writeUInt16LE(32, 12);
  directory.writeUInt32LE(image.length, 14);
  directory.writeUInt32LE(directory.length, 18);
  return Buffer.concat([directory, image]);
}

const ICO = icoBytes();
const SVG = Buffer.from(FAVICON_SVG);
const CACHE = 'public, max-age=86400';

function send(res: Response, type: string, body: Buffer, req: Request): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', CACHE);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', String(body.length));
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}

/** `/favicon.svg` and `/favicon.ico`, open to anyone (no credentials, no rate limit: a browser asks on every first visit). */
export function faviconRoutes(): Router {
  const routes = Router({ caseSensitive: true, strict: true });
  routes.get('/favicon.svg', (req, res) => send(res, 'image/svg+xml', SVG, req));
  routes.get('/favicon.ico', (req, res) => send(res, 'image/x-icon', ICO, req));
  return routes;
}
