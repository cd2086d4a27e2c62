import t from 'tap';
import { PageLandmarks } from '@comps/shared/market/parse/landmarks';

// The landmark scan must agree with htmlparser2 on where scripts, styles and comments begin and end:
// a class name inside one is not a landmark, and one right after it is.
const at = (html: string, marker: string) => html.indexOf(marker);

t.test('scripts and style sheets end at an end tag followed by ">" or whitespace, as htmlparser2 reads them', async (t) => {
  const html = '<script>var s = "</scripts>"; var t = "<b class=x>";</script ><b class="x">after</b>';
  const landmarks = new PageLandmarks(html);
  t.notOk(landmarks.isMarkup(at(html, '<b class=x>')), 'inside the script: "</scripts>" did not end it');
  t.ok(landmarks.isMarkup(at(html, '<b class="x">')), 'after "</script >": markup');
  t.equal(landmarks.findTagByClass('x')?.start, at(html, '<b class="x">'), 'the class is found after the script only');
});

t.test('"<scripts" and "<styled" are elements of their own, not scripts or style sheets', async (t) => {
  const html = '<scripts><b class="y">in</b></scripts><styled><i class="z">in</i></styled><style>.q{}</style>';
  const landmarks = new PageLandmarks(html);
  t.ok(landmarks.isMarkup(at(html, '<b class="y">')), 'inside <scripts>: markup');
  t.ok(landmarks.isMarkup(at(html, '<i class="z">')), 'inside <styled>: markup');
  t.equal(landmarks.findTagByClass('z')?.start, at(html, '<i class="z">'));
});

t.test('comments hide what they hold', async (t) => {
  const html = '<!-- <b class="c"> --><!--><b class="d">x</b>';
  const landmarks = new PageLandmarks(html);
  t.notOk(landmarks.isMarkup(at(html, '<b class="c">')), 'inside a comment');
  t.ok(landmarks.isMarkup(at(html, '<b class="d">')), '"<!-->" is a whole comment');
});
