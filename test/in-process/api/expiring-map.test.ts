import t from 'tap';
import { ExpiringMap } from '@comps/shared/runtime/expiring-map';

// The one short-lived cache of principals (api), quotas (accounts' ledger) and concurrency limits (jobs).
t.test('an entry lives its time, then is gone', async (t) => {
  const map = new ExpiringMap<number>(1000, 10);
  map.set('a', 1, 0);
  t.equal(map.get('a', 999)?.value, 1, 'within its time');
  t.equal(map.get('a', 1000), undefined, 'at its end');
  t.equal(map.get('a', 10), undefined, 'and it stays gone');
});

t.test('past its size the oldest entry goes; setting again makes an entry the newest', async (t) => {
  const map = new ExpiringMap<string>(1000, 2);
  map.set('a', 'A', 0);
  map.set('b', 'B', 0);
  map.set('a', 'A2', 0);
  map.set('c', 'C', 0);
  t.equal(map.get('b', 1), undefined, 'the oldest went');
  t.equal(map.get('a', 1)?.value, 'A2');
  t.equal(map.get('c', 1)?.value, 'C');
  map.delete('c');
  t.equal(map.get('c', 1), undefined, 'deleted');
});
