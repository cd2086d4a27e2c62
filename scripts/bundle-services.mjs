#!/usr/bin/env node
// Bundles each service's compiled entry (services/<name>/dist/main.js, with everything it imports) into one file,
// services/<name>/dist/main.bundle.js, which npm start, the tests' stacks and the image run (launchStack's serviceEntry):
// `node scripts/bundle-services.mjs [service...]` (all four when none is named), after `tsc -b` (npm run build). Why: Node's module loader, not the services' own work, was most of a start's CPU. On a
// 2-core machine a stack's start took 6.4 s of CPU (the api alone 2.0 s, of it 1.3-1.9 s importing some 600 files:
// each resolved, stat'ed, read and compiled on its own), and the test suite starts about fifty stacks. One file per
// service is read and compiled once (the api's import: 0.7 s of CPU against 1.3-1.9).
//
// The modules keep what they find beside them (migrations, the parse thread's entry, the native helper, the
// dashboard's assets) through `import.meta.url`; in a bundle that names the bundle, so each module's own is put back,
// as the address of its file relative to the bundle (the checkout, or the image's /app, can move). The parse
// thread's entry stays a module of its own (a worker loads it by address).
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const SERVICES = process.argv.length > 2 ? process.argv.slice(2) : ['accounts', 'api', 'jobs', 'market-sim'];
const BUNDLE_NAME = 'main.bundle.js';

/** `import.meta.url` in `file` as that file's own address, for a bundle written to `outDir`. */
function ownModuleUrl(outDir) {
  return {
    name: 'own-module-url',
    setup(builder) {
      builder.onLoad({ filter: /\.(m?js)$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const relative = path.relative(outDir, args.path).split(path.sep).join('/');
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'js' };
      });
    },
  };
}

/**
 * Whether the bundle is newer than every file it was made from (listed beside it at its build) and than this script:
 * a build that changed nothing (npm start again, each test of npm start) makes none.
 */
function upToDate(bundle, inputsFile) {
  try {
    const built = statSync(bundle).mtimeMs;
    const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
    return [fileURLToPath(import.meta.url), ...inputs.map((input) => path.join(ROOT, input))].every((file) => statSync(file).mtimeMs <= built);
  } catch {
    return false;
  }
}

for (const name of SERVICES) {
  const outDir = path.join(ROOT, 'services', name, 'dist');
  const bundle = path.join(outDir, BUNDLE_NAME);
  const inputsFile = path.join(outDir, `${BUNDLE_NAME}.inputs.json`);
  if (upToDate(bundle, inputsFile)) continue;
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(outDir, 'main.js')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    metafile: true,
    write: false,
    // CommonJS packages (mysql2, koa's) call require() for Node's own modules: an ES module has none of its own.
    banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
    plugins: [ownModuleUrl(outDir)],
  });
  // Each file is put in place whole (written beside it, then renamed over it): a service starting from the bundle
  // while another build runs (npm start beside a running stack) reads the old one or the new one, never half of one.
  // The list of inputs goes last, so that a build stopped halfway is not taken for a finished one.
  const files = [...result.outputFiles.map((file) => ({ path: file.path, contents: file.contents })), { path: inputsFile, contents: JSON.stringify(Object.keys(result.metafile.inputs)) }];
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
}
