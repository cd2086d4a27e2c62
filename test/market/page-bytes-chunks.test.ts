import t from 'tap';
import { PageBytes } from '@comps/shared/market/fetch/page-bytes';
import { PageText } from '@comps/shared/market/parse/page-text';

const owned = (text: string) => {
  const buffer = Buffer.alloc(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
};

t.test('whole(): the chunks put together once, a single chunk as it is', async (t) => {
  const single = owned('<html></html>');
  t.equal(PageBytes.of([single]).whole(), single, 'the chunk itself');
  const bytes = PageBytes.of([owned('<html>'), owned('ü'), owned('</html>')]);
  t.equal(bytes.length, 15);
  const whole = bytes.whole();
  t.equal(whole.toString('utf8'), '<html>ü</html>');
  t.equal(bytes.whole(), whole, 'copied together once');
  t.equal(PageBytes.of([]).whole().length, 0, 'an empty body');
});

t.test('forThread(): chunks that own their memory are moved, slices copied; read together as one text; the bytes are not read here again', async (t) => {
  const pool = Buffer.from('HTTP/1.1 200 OK\r\n\r\n<html>');
  const first = pool.subarray(19);
  const second = owned('<body>ü</body>');
  const third = owned('</html>');
  const bytes = PageBytes.of([first, second, third]);
  const { parts, moved } = bytes.forThread();
  t.equal(moved.length, 3, 'one buffer each');
  t.equal(moved[0]!.byteLength, 6, "the first chunk's bytes alone copied, not the headers' buffer");
  t.equal(moved[1], second.buffer, 'the others their own buffers');
  const textOf = (page: PageText) => page.text(0, page.html.length);
  t.equal(textOf(PageText.ofParts(parts)), '<html><body>ü</body></html>');
  t.equal(textOf(PageText.ofParts([parts[1]!])), '<body>ü</body>', 'a single part');
  t.throws(() => bytes.whole(), /handed to their reader/);
  t.throws(() => bytes.forThread(), /handed to their reader/);
  t.throws(() => bytes.take(), /handed to their reader/);
});

t.test('take(): the chunks as they are, for a reader on this thread; the bytes are not read again', async (t) => {
  const chunks = [owned('<html>'), owned('ü'), owned('</html>')];
  const bytes = PageBytes.of(chunks);
  const taken = bytes.take();
  t.equal(taken.length, 3);
  t.ok(taken.every((chunk, index) => chunk === chunks[index]), 'the chunks themselves, not copies');
  t.throws(() => bytes.take(), /handed to their reader/);
  t.throws(() => bytes.whole(), /handed to their reader/);
  t.throws(() => bytes.forThread(), /handed to their reader/);
});

t.test('forThread(join): chunks of 64 KB or more in all are joined into one buffer, moved; one chunk, or fewer bytes, as without', async (t) => {
  const joins: number[] = [];
  const join = (parts: readonly Uint8Array[]) => {
    joins.push(parts.length);
    return new Uint8Array(Buffer.concat(parts)).buffer;
  };
  const chunks = [Buffer.alloc(40_000, 0x61), Buffer.alloc(40_000, 0x62)];
  const { parts, moved } = PageBytes.of(chunks).forThread(join);
  t.strictSame(joins, [2], 'joined');
  t.equal(parts.length, 1, 'one part');
  t.equal(moved.length, 1, 'one buffer moved');
  t.equal(parts[0]!.buffer, moved[0], "the part's own buffer");
  t.equal(Buffer.from(parts[0]!).toString('latin1'), 'a'.repeat(40_000) + 'b'.repeat(40_000), 'the bytes in order');
  const single = PageBytes.of([Buffer.alloc(100_000, 0x63)]).forThread(join);
  t.equal(single.parts.length, 1);
  const few = PageBytes.of([Buffer.alloc(30_000), Buffer.alloc(30_000)]).forThread(join);
  t.equal(few.parts.length, 2, 'under 64 KB: the chunks as they are');
  t.strictSame(joins, [2], 'neither joined');
});
