#!/usr/bin/env node
// Bundles each service's compiled entry (services/<name>/dist/main.js, with everything it imports) into one file,
// services/<name>/dist/main.bundle.js, which npm start, the tests' stacks and the image run (launchStack's
// serviceEntry): `node scripts/bundle-services.mjs [service...]` (all four when none is named), after `tsc -b` (npm run
// build). Why: Node's module loader, not the services' own work, was most of a start's CPU. On a 2-core machine a
// stack's start took 6.4 s of CPU (the api alone 2.0 s, of it 1.2-1.9 s importing some 600 files: each resolved,
// stat'ed, read and compiled on its own), and the test suite starts about fifty stacks. One file per service is read
// and compiled once (the api's modules to its configuration check: 0.68 s of CPU against 1.2; a stack's start 5.1 s).
// What it costs: the api held 110 and 124 MB after bench:api's 10,000 searches against 98 MB from its modules.
//
// The modules keep what they find beside them (the parse thread's entry, the native helper, the
// dashboard's assets) through `import.meta.url`; in a bundle that names the bundle, so each module's own is put back,
// as the address of its file relative to the bundle (the checkout, or the image's /app, can move). The parse
// thread's entry stays a module of its own (a worker loads it by address).
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
        // Only `import.meta.url` is put back: another property (dirname, filename, resolve) would name the bundle's.
        const other = /import\.meta\.(?!url\b)\w+/.exec(source);
        if (other) throw new Error(`${args.path}: ${other[0]} would be the bundle's; use import.meta.url`);
        if (!source.includes('import.meta.url')) return undefined;
        const relative = path.relative(outDir, args.path).split(path.sep).join('/');
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'js' };
      });
    },
  };
}

/** Files besides its inputs whose change makes a bundle anew: this script (its options), the dependencies' versions. */
const ALWAYS_CHECKED = [path.relative(ROOT, fileURLToPath(import.meta.url)), 'package-lock.json'];

const modifiedAt = (file) => statSync(path.join(ROOT, file)).mtimeMs;

/**
 * Whether every file the bundle was made from is as it was then (its modification time, recorded beside the bundle
 * at its build): a build that changed nothing (npm start again, each test of npm start) makes none.
 */
function upToDate(inputsFile) {
  try {
    const recorded = JSON.parse(readFileSync(inputsFile, 'utf8'));
    return Object.entries(recorded).every(([file, mtimeMs]) => modifiedAt(file) === mtimeMs);
  } catch {
    return false;
  }
}

/** Puts a file in place whole (written beside it, then renamed over it): a reader sees the old file or the new one. */
function replaceFile(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

for (const name of SERVICES) {
  const outDir = path.join(ROOT, 'services', name, 'dist');
  const bundle = path.join(outDir, BUNDLE_NAME);
  const inputsFile = path.join(outDir, `${BUNDLE_NAME}.inputs.json`);
  if (upToDate(inputsFile)) continue;
  // Gone until the bundle is written whole: a build stopped halfway is not taken for a finished one.
  rmSync(inputsFile, { force: true });
  const started = Date.now();
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
  // A service starting from the bundle while another build runs (npm start beside a running stack) reads the old one
  // or the new one, never half of one.
  for (const file of result.outputFiles) replaceFile(file.path, file.contents);
  const recorded = Object.fromEntries([...ALWAYS_CHECKED, ...Object.keys(result.metafile.inputs)].map((file) => [file, modifiedAt(file)]));
  // A file changed while esbuild read it may be in the bundle as it was: no record then, and the next build makes it anew.
  if (Object.values(recorded).every((mtimeMs) => mtimeMs < started)) replaceFile(inputsFile, JSON.stringify(recorded));
}
