#!/usr/bin/env node
// Builds the services' native helper (native-helper.cc) with the machine's C++ compiler against the running
// Node's headers: `node shared/native/build.mjs [--required]`. Plain Node, no dependency (node-gyp is not needed
// for one source file). Without a compiler or the headers it says so and leaves the helper out (the services then
// run without it, and its tests are skipped); --required makes that a failure (the image).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = path.join(HERE, 'native-helper.cc');

/**
 * Where the helper for the running Node is. It calls V8 itself, whose interface holds within one
 * module ABI (one Node major version): a helper built for another is not this one's, and is built
 * again rather than loaded.
 */
export const NATIVE_HELPER_PATH = path.join(HERE, 'build', `native-helper-abi${process.versions.modules}.node`);

function mtimeOf(file) {
  return existsSync(file) ? statSync(file).mtimeMs : undefined;
}

/**
 * Removes the helpers built for other Node versions: a checkout whose Node changed would otherwise keep
 * one for each (a process of an older Node that still has one loaded keeps its mapping).
 */
function removeOtherVersions() {
  const directory = path.dirname(NATIVE_HELPER_PATH);
  if (!existsSync(directory)) return;
  const own = path.basename(NATIVE_HELPER_PATH);
  for (const name of readdirSync(directory)) {
    if (/^native-helper-abi\d+\.node$/.test(name) && name !== own) rmSync(path.join(directory, name), { force: true });
  }
}

/**
 * Builds the helper when it is missing or older than its source, and removes those of other Node
 * versions; returns what was done, or why not, in one line, and whether that is because the compiler
 * or Node's headers are not on this machine.
 */
export function buildNative({ compiler = process.env.CXX || 'c++', headers = path.join(path.dirname(process.execPath), '..', 'include', 'node') } = {}) {
  removeOtherVersions();
  const built = mtimeOf(NATIVE_HELPER_PATH);
  // This file holds the compiler's flags: a change to either builds it again.
  if (built !== undefined && built >= Math.max(mtimeOf(SOURCE), mtimeOf(fileURLToPath(import.meta.url)))) return { ok: true, line: 'native helper is up to date' };
  if (!existsSync(path.join(headers, 'node.h'))) return { ok: false, missingTool: true, line: `native helper not built: Node's headers are not at ${headers}` };
  mkdirSync(path.dirname(NATIVE_HELPER_PATH), { recursive: true });
  const partial = `${NATIVE_HELPER_PATH}.${process.pid}.partial`;
  // Node's and V8's functions are the running node's: left undefined here, found when the module is loaded.
  // Node's headers are the system's to the compiler: V8's own draw warnings that are not this file's.
  const linking = process.platform === 'darwin' ? ['-bundle', '-undefined', 'dynamic_lookup'] : ['-shared'];
  const result = spawnSync(compiler, [...linking, '-std=c++20', '-fPIC', '-O2', '-Wall', '-Wextra', `-isystem${headers}`, '-o', partial, SOURCE], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error || result.status !== 0) {
    rmSync(partial, { force: true });
    const why = result.error ? `${compiler} could not be run (${result.error.code ?? result.error.message})` : `${compiler} failed (above)`;
    return { ok: false, missingTool: Boolean(result.error), line: `native helper not built: ${why}; the services run without it (their idle collection then gives back less: V8's young generation and glibc's free pages stay; and each page read is copied once more)` };
  }
  renameSync(partial, NATIVE_HELPER_PATH);
  return { ok: true, line: 'native helper built' };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { ok, line } = buildNative();
  if (!ok || process.argv.includes('--verbose')) process.stderr.write(`build-native: ${line}\n`);
  if (!ok && process.argv.includes('--required')) process.exit(1);
}
