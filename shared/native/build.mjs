#!/usr/bin/env node
// Builds the api's native helper (malloc-trim.c) with the machine's C compiler against the running Node's
// headers: `node shared/native/build.mjs [--required]`. Plain Node, no dependency (node-gyp is not needed for
// one C file using Node-API, whose ABI is stable across Node versions). Without a compiler or the headers it
// says so and leaves the helper out (the api then runs without it, and its test is skipped); --required makes
// that a failure (the image).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = path.join(HERE, 'malloc-trim.c');
const MALLOC_TRIM_ADDON = path.join(HERE, 'build', 'malloc-trim.node');

function mtimeOf(file) {
  return existsSync(file) ? statSync(file).mtimeMs : undefined;
}

/**
 * Builds the helper when it is missing or older than its source; returns what was done, or why not,
 * in one line, and whether that is because the compiler or Node's headers are not on this machine.
 */
export function buildNative({ compiler = process.env.CC || 'cc', headers = path.join(path.dirname(process.execPath), '..', 'include', 'node') } = {}) {
  const built = mtimeOf(MALLOC_TRIM_ADDON);
  // This file holds the compiler's flags: a change to either builds it again.
  if (built !== undefined && built >= Math.max(mtimeOf(SOURCE), mtimeOf(fileURLToPath(import.meta.url)))) return { ok: true, line: 'malloc-trim helper is up to date' };
  if (!existsSync(path.join(headers, 'node_api.h'))) return { ok: false, missingTool: true, line: `malloc-trim helper not built: Node's headers are not at ${headers}` };
  mkdirSync(path.dirname(MALLOC_TRIM_ADDON), { recursive: true });
  const partial = `${MALLOC_TRIM_ADDON}.${process.pid}.partial`;
  // Node-API's functions are the running node's: left undefined here, found when the module is loaded.
  const linking = process.platform === 'darwin' ? ['-bundle', '-undefined', 'dynamic_lookup'] : ['-shared'];
  const result = spawnSync(compiler, [...linking, '-fPIC', '-O2', '-Wall', '-Wextra', `-I${headers}`, '-o', partial, SOURCE], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error || result.status !== 0) {
    rmSync(partial, { force: true });
    const why = result.error ? `${compiler} could not be run (${result.error.code ?? result.error.message})` : `${compiler} failed (above)`;
    return { ok: false, missingTool: Boolean(result.error), line: `malloc-trim helper not built: ${why}; the api runs without it (its idle collection then gives back V8's memory, not glibc's)` };
  }
  renameSync(partial, MALLOC_TRIM_ADDON);
  return { ok: true, line: 'malloc-trim helper built' };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { ok, line } = buildNative();
  if (!ok || process.argv.includes('--verbose')) process.stderr.write(`build-native: ${line}\n`);
  if (!ok && process.argv.includes('--required')) process.exit(1);
}
