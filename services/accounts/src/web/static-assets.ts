import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { Middleware } from 'koa';
import { COPY_KEY_JS } from './assets/copy-key-js.js';
import { DASHBOARD_CSS } from './assets/dashboard-css.js';
import { DOCS_JS } from './assets/docs-js.js';
import { FAVICON_SVG } from './assets/favicon-svg.js';

interface Asset {
  body: Buffer;
  gzipped: Buffer;
  type: string;
  /** A digest of the content: URLs carry it (`?v=`), so a new version is a new URL and the old may be cached for good. */
  version: string;
}

export type AssetName = 'dashboard.css' | 'copy-key.js' | 'favicon.svg' | 'swagger-ui.css' | 'swagger-ui-bundle.js' | 'docs.js';

/** The files the pages use: ours, and Swagger UI's from the installed package (no CDN). */
const ASSET_PATHS: Record<AssetName, string> = {
  'dashboard.css': '/dashboard/assets/dashboard.css',
  'copy-key.js': '/dashboard/assets/copy-key.js',
  'favicon.svg': '/dashboard/assets/favicon.svg',
  'swagger-ui.css': '/docs/assets/swagger-ui.css',
  'swagger-ui-bundle.js': '/docs/assets/swagger-ui-bundle.js',
  'docs.js': '/docs/assets/docs.js',
};

const CSS = 'text/css; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';

function asset(body: Buffer | string, type: string): Asset {
  const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return { body: buffer, gzipped: gzipSync(buffer, { level: 9 }), type, version: createHash('sha256').update(buffer).digest('base64url').slice(0, 12) };
}

/** Swagger UI's bundle without its source-map comment (the map is not served). */
function swaggerFile(name: string): Buffer {
  const file = createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`);
  return Buffer.from(readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
}

export interface AssetStore {
  /** The URL a page links to: the path and the content's version. */
  urlOf(name: AssetName): string;
  /** Answers GET and HEAD of the asset paths; everything else goes on. */
  middleware(): Middleware;
}

/** Read and compressed once at boot (Swagger UI's bundle is 1.7 MB, 0.5 MB gzipped). */
export function createAssetStore(): AssetStore {
  const assets: Record<AssetName, Asset> = {
    'dashboard.css': asset(DASHBOARD_CSS, CSS),
    'copy-key.js': asset(COPY_KEY_JS, JS),
    'favicon.svg': asset(FAVICON_SVG, 'image/svg+xml'),
    'swagger-ui.css': asset(swaggerFile('swagger-ui.css'), CSS),
    'swagger-ui-bundle.js': asset(swaggerFile('swagger-ui-bundle.js'), JS),
    'docs.js': asset(DOCS_JS, JS),
  };
  const byPath = new Map(Object.entries(ASSET_PATHS).map(([name, path]) => [path, assets[name as AssetName]]));
  return {
    urlOf: (name) => `${ASSET_PATHS[name]}?v=${assets[name].version}`,
    middleware: () => (ctx, next) => {
      const found = byPath.get(ctx.path);
      if (!found || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
      const etag = `"${found.version}"`;
      ctx.set('ETag', etag);
      ctx.set('Vary', 'Accept-Encoding');
      ctx.set('Cache-Control', ctx.query.v === found.version ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (ctx.get('If-None-Match') === etag) {
        ctx.status = 304;
        return;
      }
      ctx.type = found.type;
      if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
        ctx.set('Content-Encoding', 'gzip');
        ctx.body = found.gzipped;
      } else {
        ctx.body = found.body;
      }
    },
  };
}
