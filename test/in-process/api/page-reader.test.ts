import t from 'tap';
import { copyAsLatin1 } from '@comps/shared/runtime/one-byte-text';
import { loadNativeHelper, type NativeHelper } from '@comps/shared/runtime/native-helper';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

// The api reads its pages with the native helper its main gives it (loaded once for the process),
// not with one of its own: every page of a search and of an item comes through that helper.

/** The helper built here (a copy where it is not), with each page it reads counted. */
function countingHelper(): { native: NativeHelper; pagesRead: number[] } {
  const loaded = loadNativeHelper();
  const helper =
    'unavailable' in loaded
      ? { mallocTrim: () => false, lowMemoryNotification: () => undefined, oneByteText: copyAsLatin1, joinedBytes: (parts: readonly Uint8Array[]) => new Uint8Array(Buffer.concat(parts)).buffer }
      : loaded;
  const pagesRead: number[] = [];
  const native = {
    ...helper,
    oneByteText: (parts: readonly Uint8Array[]) => {
      pagesRead.push(parts.reduce((sum, part) => sum + part.length, 0));
      return helper.oneByteText(parts);
    },
  };
  return { native, pagesRead };
}

t.test('the api reads search and item pages with the native helper it is given', async (t) => {
  const stack = await startInProcessStack(t);
  const { native, pagesRead } = countingHelper();
  const api = await stack.startApi({ native });
  const { apiKey } = await createWorkspace(stack);

  const search = await request(api.baseUrl, '/v1/scrape?keyword=desk+lamp&count=3', { apiKey });
  t.equal(search.status, 200);
  const items = (search.body as { items: Array<{ itemId: string; title: string }> }).items;
  t.equal(items.length, 3, 'the page read: three listings');
  t.equal(pagesRead.length, 1, 'the search page came through the helper');
  t.ok(pagesRead[0]! > 1000, `its bytes, all of them (${pagesRead[0]} bytes)`);

  const item = await request(api.baseUrl, `/v1/item/${items[0]!.itemId}`, { apiKey });
  t.equal(item.status, 200);
  t.equal((item.body as { title: string }).title, items[0]!.title, 'the item page read: the listing the search found');
  t.equal(pagesRead.length, 2, 'the item page came through the helper too');
});
