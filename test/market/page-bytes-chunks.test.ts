import t from 'tap';
import { joinParts, PageBytes } from '@comps/shared/market/fetch/page-bytes';

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

t.test('forThread(): chunks that own their memory are moved, slices copied; joinParts puts them back together; the bytes are not read here again', async (t) => {
  const pool = Buffer.from('HTTP/1.1 200 OK\r\n\r\n<html>');
  const first = pool.subarray(19);
  const second = owned('<body>ü</body>');
  const third = owned('</html>');
  const bytes = PageBytes.of([first, second, third]);
  const { parts, moved } = bytes.forThread();
  t.equal(moved.length, 3, 'one buffer each');
  t.equal(moved[0]!.byteLength, 6, "the first chunk's bytes alone copied, not the headers' buffer");
  t.equal(moved[1], second.buffer, 'the others their own buffers');
  t.equal(joinParts(parts).toString('utf8'), '<html><body>ü</body></html>');
  t.equal(joinParts([parts[1]!]).toString('utf8'), '<body>ü</body>', 'a single part as it is');
  t.throws(() => bytes.whole(), /went to another thread/);
  t.throws(() => bytes.forThread(), /went to another thread/);
});
