/**
 * The keys page's only script (served as a file: the policy allows no inline script): shows the
 * copy button and copies the new key. Without JavaScript the key is still there to select and copy.
 */
export const COPY_KEY_JS = `'use strict';
document.querySelectorAll('[data-copy-target]').forEach(function (button) {
  var field = document.getElementById(button.getAttribute('data-copy-target'));
  var status = document.getElementById(button.getAttribute('data-copy-status'));
  if (!field) return;
  button.hidden = false;
  button.addEventListener('click', function () {
    var done = function () { if (status) status.textContent = 'Copied to the clipboard.'; };
    var fallback = function () { field.select(); document.execCommand('copy'); done(); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, fallback);
    else fallback();
  });
});
`;
