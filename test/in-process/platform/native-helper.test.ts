import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { buildNative, NATIVE_HELPER_PATH } from '../../../shared/native/build.mjs';
import { integerBetween, forAll } from '../../helpers/property-test.js';
import { loadedNativeHelper } from '../../helpers/native-helper.js';
import { withoutTapHooks } from '../../helpers/without-tap-hooks.js';

const requireFrom = createRequire(import.meta.url);
const MB = 1024 * 1024;
const HELPER_MODULE = pathToFileURL(requireFrom.resolve('@comps/shared/runtime/native-helper')).href;

t.test("oneByteText reads any bytes as toString('latin1') does, at every size and offset", async (t) => {
  const native = loadedNativeHelper(t);
  if (!native) return;
  forAll(60, (random) => {
    // Around the size below which the bytes are copied (64 KB), and a page's size.
    const length = [integerBetween(random, 0, 300), integerBetween(random, 64 * 1024 - 8, 64 * 1024 + 8), integerBetween(random, 1_000_000, 1_300_000)][integerBetween(random, 0, 2)]!;
    const offset = integerBetween(random, 0, 64);
    const block = Buffer.allocUnsafeSlow(offset + length + 16);
    for (let index = 0; index < block.length; index += 1) block[index] = integerBetween(random, 0, 255);
    const bytes = block.subarray(offset, offset + length);
    const text = native.oneByteText([bytes]);
    if (text !== bytes.toString('latin1')) throw new Error(`${length} bytes at offset ${offset} read differently`);
  });
  t.equal(native.oneByteText([Buffer.alloc(0)]), '', 'no bytes: the empty string');
  t.equal(native.oneByteText([]), '', 'no parts: the empty string');
});

t.test("oneByteText reads bytes in parts as toString('latin1') reads them joined, whatever the parts; parts that are their whole buffer are left empty", async (t) => {
  const native = loadedNativeHelper(t);
  if (!native) return;
  forAll(60, (random) => {
    // In all, around the size below which the parts are copied (64 KB), and a page's size.
    const length = [integerBetween(random, 0, 300), integerBetween(random, 64 * 1024 - 8, 64 * 1024 + 8), integerBetween(random, 1_000_000, 2_300_000)][integerBetween(random, 0, 2)]!;
    const bytes = Buffer.allocUnsafeSlow(length);
    for (let index = 0; index < length; index += 1) bytes[index] = integerBetween(random, 0, 255);
    // Cut anywhere (empty parts too); each part its own buffer, or cut from a larger one.
    const cuts = Array.from({ length: integerBetween(random, 1, 40) }, () => integerBetween(random, 0, length)).sort((a, b) => a - b);
    const bounds = [0, ...cuts, length];
    const parts = bounds.slice(1).map((end, index) => {
      const piece = bytes.subarray(bounds[index]!, end);
      if (random() < 0.5) return { view: new Uint8Array(piece), whole: true };
      const offset = integerBetween(random, 1, 16);
      const block = new Uint8Array(offset + piece.length + 8);
      block.set(piece, offset);
      return { view: block.subarray(offset, offset + piece.length), whole: false };
    });
    const text = native.oneByteText(parts.map((part) => part.view));
    if (text !== bytes.toString('latin1')) throw new Error(`${length} bytes in ${parts.length} parts read differently`);
    // Joined (several parts, 64 KB in all): their memory is let go at once; copied (less) or one part alone: as oneByteText leaves one.
    const joined = parts.length > 1 && length >= 64 * 1024;
    for (const [index, part] of parts.entries()) {
      const left = part.view.byteLength;
      const expected = joined && part.whole ? 0 : bounds[index + 1]! - bounds[index]!;
      if (parts.length > 1 && left !== expected) throw new Error(`part ${index} of ${parts.length} (${length} bytes in all) left ${left} bytes, not ${expected}`);
    }
  });
});

/**
 * Run in a process of its own, with V8's collections settled first (none then comes between the
 * readings): what V8 counts of memory outside its heap before and after a 16 MB buffer's bytes are
 * read into text, and what is left of the buffer.
 */
const TAKE_CHECK = `
import { getHeapStatistics } from 'node:v8';
import { loadNativeHelper } from ${JSON.stringify(HELPER_MODULE)};
const native = loadNativeHelper();
const settle = async () => { for (let round = 0; round < 3; round += 1) { globalThis.gc(); await new Promise((next) => setImmediate(next)); } };
const external = () => getHeapStatistics().external_memory;
const whole = Buffer.alloc(${16 * MB}, 0x61);
await settle();
const before = external();
const text = native.oneByteText([whole]);
const after = external();
process.stdout.write(JSON.stringify({ counted: after - before, length: whole.length, byteLength: whole.buffer.byteLength, read: text.length === ${16 * MB} && text === 'a'.repeat(${16 * MB}) }));
`;

t.test('oneByteText takes bytes that are the whole of their buffer (it is left empty), so that V8 counts them once; bytes cut from a buffer stay', async (t) => {
  const native = loadedNativeHelper(t);
  if (!native) return;
  const { stdout } = await promisify(execFile)(...withoutTapHooks(process.execPath, ['--expose-gc', '--input-type=module', '-e', TAKE_CHECK]));
  const figures = JSON.parse(stdout) as { counted: number; length: number; byteLength: number; read: boolean };
  t.equal(Math.round(figures.counted / MB), 0, "the buffer's 16 MB are counted once, now as the text's");
  t.equal(figures.length, 0, 'the buffer is empty');
  t.equal(figures.byteLength, 0, 'its memory is detached from it');
  t.equal(figures.read, true, 'the text reads the bytes');
  const block = Buffer.alloc(2 * MB, 0x62);
  const part = block.subarray(1, 2 * MB - 1);
  const partText = native.oneByteText([part]);
  t.equal(block.length, 2 * MB, 'bytes cut from a larger buffer leave it as it was');
  t.equal(part.length, 2 * MB - 2, 'and the view of them too');
  t.equal(partText, part.toString('latin1'), 'read as they are');
  const small = Buffer.alloc(1000, 0x63);
  t.equal(native.oneByteText([small]), 'c'.repeat(1000), 'bytes under 64 KB are copied');
  t.equal(small.length, 1000, 'and stay in their buffer');
});

t.test('the helper itself refuses what is not bytes that stay as they are, and reads no bytes as the empty string', async (t) => {
  if (!loadedNativeHelper(t)) return;
  // The addon as it is, without the loader's copy of small buffers.
  const addon = requireFrom(NATIVE_HELPER_PATH) as { oneByteText: (bytes: unknown) => string; joinedOneByteText: (parts: unknown) => string; joinedBytes: (parts: unknown) => ArrayBuffer };
  t.equal(addon.oneByteText(Buffer.alloc(0)), '', 'no bytes');
  t.equal(addon.oneByteText(new Uint8Array(new ArrayBuffer(8), 8, 0)), '', 'no bytes, at the end of a buffer');
  t.equal(addon.oneByteText(Buffer.from('abc')), 'abc', 'a few bytes');
  t.throws(() => addon.oneByteText('abc'), { name: 'TypeError', message: 'oneByteText takes a Uint8Array' }, 'a string');
  t.throws(() => addon.oneByteText(new Uint16Array(4)), { name: 'TypeError' }, 'other views');
  t.throws(() => addon.oneByteText(new Uint8Array(new SharedArrayBuffer(16))), { name: 'TypeError', message: 'oneByteText takes bytes that are neither shared nor resizable' }, 'bytes other threads can write');
  const resizable = new (ArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => ArrayBuffer)(16, { maxByteLength: 64 });
  t.throws(() => addon.oneByteText(new Uint8Array(resizable)), { name: 'TypeError' }, 'bytes that can shrink');
  // Joined parts are copied: any bytes will do, shared ones too; anything else is refused.
  t.equal(addon.joinedOneByteText([]), '', 'no parts');
  t.equal(addon.joinedBytes([]).byteLength, 0, 'no parts: an empty buffer');
  t.equal(addon.joinedOneByteText([Buffer.alloc(0), new Uint8Array(new ArrayBuffer(8), 8, 0)]), '', 'parts of no bytes');
  t.equal(addon.joinedOneByteText([Buffer.from('ab'), Buffer.from('c')]), 'abc', 'a few bytes');
  const shared = new Uint8Array(new SharedArrayBuffer(2));
  shared.set([0x64, 0x65]);
  t.equal(addon.joinedOneByteText([Buffer.from('abc'), shared]), 'abcde', 'shared bytes are copied');
  t.equal(shared.byteLength, 2, 'and stay');
  t.throws(() => addon.joinedOneByteText(Buffer.from('abc')), { name: 'TypeError', message: 'joinedOneByteText takes an array of Uint8Array' }, 'bytes, not parts');
  t.throws(() => addon.joinedOneByteText([Buffer.from('abc'), 'de']), { name: 'TypeError', message: 'joinedOneByteText takes an array of Uint8Array' }, 'a string among the parts');
  t.throws(() => addon.joinedOneByteText([new Uint16Array(4)]), { name: 'TypeError' }, 'other views');
  // Reading an array's element can run JavaScript: a part emptied meanwhile (its buffer moved away) is refused, not read as it was.
  const moved = new Uint8Array([0x61, 0x62, 0x63]);
  const changing = [moved];
  Object.defineProperty(changing, 1, { enumerable: true, get: () => (structuredClone(moved.buffer, { transfer: [moved.buffer] }), new Uint8Array([0x64])) });
  t.throws(() => addon.joinedBytes(changing), { name: 'TypeError', message: 'joinedBytes: a part changed while it was read' }, 'a part that changed while the parts were read');
});

/**
 * Run in a process of its own: the page faults of joining a 2 MB page's 64 KB parts into a text (at once,
 * or through a buffer, as for a parse thread), three times each way, each text collected before the next: into memory fresh from the system, into the block the
 * first text held (kept for the next page), and, after `mallocTrim`, into fresh memory again.
 */
const TRANSPARENT_HUGE_PAGES = '/sys/kernel/mm/transparent_hugepage/enabled';
const REUSE_CHECK = `
import { loadNativeHelper } from ${JSON.stringify(HELPER_MODULE)};
const native = loadNativeHelper();
const settle = async () => { for (let round = 0; round < 3; round += 1) { globalThis.gc(); await new Promise((next) => setImmediate(next)); } };
const page = Buffer.alloc(${2 * MB}, 0x61);
// Joined into a text at once, or into a buffer (as for a parse thread) read as text without a copy.
const read = async (viaBuffer) => {
  const parts = [];
  for (let at = 0; at < page.length; at += 65536) parts.push(new Uint8Array(page.subarray(at, at + 65536)));
  await settle();
  const before = process.resourceUsage().minorPageFault;
  let text = viaBuffer ? native.oneByteText([new Uint8Array(native.joinedBytes(parts))]) : native.oneByteText(parts);
  const faults = process.resourceUsage().minorPageFault - before;
  const same = text.length === page.length && text.charCodeAt(0) === 0x61 && text.charCodeAt(page.length - 1) === 0x61;
  text = null;
  await settle();
  return { faults, same };
};
const results = {};
for (const viaBuffer of [false, true]) {
  native.mallocTrim();
  const fresh = await read(viaBuffer);
  const kept = await read(viaBuffer);
  native.mallocTrim();
  const trimmed = await read(viaBuffer);
  results[viaBuffer ? 'buffer' : 'text'] = { fresh, kept, trimmed };
}
process.stdout.write(JSON.stringify(results));
`;

t.test("a joined page's memory is kept for the next page's (joined into a text, or into a buffer read as one), and freed by mallocTrim", async (t) => {
  if (!loadedNativeHelper(t)) return;
  const { stdout } = await promisify(execFile)(...withoutTapHooks(process.execPath, ['--expose-gc', '--input-type=module', '-e', REUSE_CHECK]));
  const results = JSON.parse(stdout) as Record<'text' | 'buffer', Record<'fresh' | 'kept' | 'trimmed', { faults: number; same: boolean }>>;
  // With transparent huge pages always on, fresh memory can fault in 2 MB at a time: the counts say nothing there.
  const hugePagesAlways = existsSync(TRANSPARENT_HUGE_PAGES) && readFileSync(TRANSPARENT_HUGE_PAGES, 'utf8').includes('[always]');
  for (const [way, { fresh, kept, trimmed }] of Object.entries(results)) {
    t.strictSame([fresh.same, kept.same, trimmed.same], [true, true, true], `${way}: each text reads its bytes`);
    if (hugePagesAlways) continue;
    // 2 MB is 512 pages of 4 KB: memory fresh from the system faults once a page as it is first written.
    t.ok(fresh.faults >= 500, `${way}: the first page's in fresh memory: ${fresh.faults} page faults`);
    t.ok(kept.faults < 50, `${way}: the second in the memory the first held: ${kept.faults} page faults`);
    t.ok(trimmed.faults >= 500, `${way}: after mallocTrim, in fresh memory again: ${trimmed.faults} page faults`);
  }
});

/**
 * Run in a process of its own, with V8's collections called when the check chooses: texts of 1 MB
 * buffers kept while the buffers are dropped (the texts hold the bytes), then dropped too (the bytes
 * are freed). What Node counts of ArrayBuffer memory at each step, and whether the texts stayed whole.
 */
const LIFETIME_CHECK = `
import { loadNativeHelper } from ${JSON.stringify(HELPER_MODULE)};
const native = loadNativeHelper();
const settle = async () => { for (let round = 0; round < 3; round += 1) { globalThis.gc(); await new Promise((next) => setImmediate(next)); } };
await settle();
const before = process.memoryUsage().arrayBuffers;
let texts = [];
for (let index = 0; index < 32; index += 1) texts.push(native.oneByteText([Buffer.alloc(1 << 20, 97 + index)]));
await settle();
const held = process.memoryUsage().arrayBuffers;
// Fresh memory over the freed buffers' would show a text read from freed bytes.
const scratch = Array.from({ length: 32 }, () => Buffer.alloc(1 << 20, 0x7a));
const whole = texts.every((text, index) => text.length === 1 << 20 && text === String.fromCharCode(97 + index).repeat(1 << 20));
texts = null;
await settle();
const freed = process.memoryUsage().arrayBuffers - scratch.length * (1 << 20);
process.stdout.write(JSON.stringify({ before, held, freed, whole }));
`;

t.test('a text holds its bytes while it lives, and lets them go with it', async (t) => {
  if (!loadedNativeHelper(t)) return;
  const { stdout } = await promisify(execFile)(...withoutTapHooks(process.execPath, ['--expose-gc', '--input-type=module', '-e', LIFETIME_CHECK]));
  const figures = JSON.parse(stdout) as { before: number; held: number; freed: number; whole: boolean };
  t.equal(figures.whole, true, 'every text read as its bytes, after its buffer was dropped and collected');
  t.equal(Math.round((figures.held - figures.before) / MB), 32, "the texts held their 32 MB of bytes once their buffers were gone");
  t.equal(Math.round((figures.freed - figures.before) / MB), 0, 'and let them go once the texts were gone');
});

/**
 * Run in a process of its own, whose main thread never loads the helper: threads that each load it,
 * read a text (of one part, and of two joined) and stop (one on its own, one stopped) with the texts still held. Node unloads the addons a
 * thread loaded before V8 frees the thread's heap, which lets the text's bytes go through the helper's
 * code: a helper that could be unloaded crashed the process here.
 */
// A module, as the process's --input-type makes the threads' code too.
const THREAD_SOURCE = `
import { parentPort } from 'node:worker_threads';
import { loadNativeHelper } from ${JSON.stringify(HELPER_MODULE)};
const native = loadNativeHelper();
const bytes = Buffer.alloc(200000, 0xe9);
const expected = bytes.toString('latin1');
globalThis.held = native.oneByteText([Buffer.from(bytes)]);
// Joined into a kept block, which goes back to the process's blocks as the thread's heap is freed.
globalThis.joined = native.oneByteText([bytes.subarray(0, 100000), bytes.subarray(100000)]);
parentPort.postMessage(globalThis.held === expected && globalThis.joined === expected);
if (process.argv.includes('stay')) setInterval(() => undefined, 1000);
`;
const THREAD_CHECK = `
import { Worker } from 'node:worker_threads';
const results = [];
for (const how of ['exit', 'stay', 'exit', 'stay']) {
  const worker = new Worker(${JSON.stringify(THREAD_SOURCE)}, { eval: true, argv: [how] });
  const same = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  const code = how === 'stay' ? await worker.terminate() : await new Promise((resolve) => worker.once('exit', resolve));
  results.push({ same, code });
}
process.stdout.write(JSON.stringify(results));
`;

t.test('oneByteText works in worker threads (parse threads load the helper too), which stop cleanly holding their texts', async (t) => {
  if (!loadedNativeHelper(t)) return;
  const { stdout } = await promisify(execFile)(...withoutTapHooks(process.execPath, ['--input-type=module', '-e', THREAD_CHECK]));
  t.strictSame(JSON.parse(stdout), [
    { same: true, code: 0 },
    { same: true, code: 1 },
    { same: true, code: 0 },
    { same: true, code: 1 },
  ], 'each thread read the same text, and ended (on its own: 0; stopped: 1) without crashing the process');
});

t.test("a build removes the helpers of other Node versions, and keeps this one's", async (t) => {
  const native = loadedNativeHelper(t);
  if (!native) return;
  const directory = path.dirname(NATIVE_HELPER_PATH);
  mkdirSync(directory, { recursive: true });
  const others = ['native-helper-abi1.node', 'native-helper-abi999.node'].map((name) => path.join(directory, name));
  for (const other of others) writeFileSync(other, 'built by another Node');
  const unrelated = path.join(directory, 'notes.txt');
  writeFileSync(unrelated, 'not a helper');
  t.teardown(() => rmSync(unrelated, { force: true }));
  t.equal(buildNative().ok, true);
  t.strictSame(others.map((other) => existsSync(other)), [false, false], 'the other versions are gone');
  t.equal(existsSync(NATIVE_HELPER_PATH), true, "this version's helper stays");
  t.equal(existsSync(unrelated), true, 'what is not a helper stays');
});
