import t from 'tap';
import type { Usage } from '@comps/shared/contract/usage';
import { setLimitsInForce } from '../../helpers/accounts-client.js';
import { launchBrowser, openPage, saveScreenshot } from '../../helpers/browser.js';
import { createKeyInBrowser, FormClient, signUpInBrowser, uniqueEmail } from '../../helpers/dashboard.js';
import { request } from '../../helpers/http-client.js';
import { createJob, waitForJob } from '../../helpers/jobs.js';
import { startTestStack } from '../../helpers/test-stack.js';

const stack = await startTestStack(t);
const browser = await launchBrowser(t);

t.test('the jobs page lists the workspace\'s jobs with status and progress, and downloads the CSV with the session', async (t) => {
  const { page, problems } = await openPage(browser, stack.baseUrl);
  await signUpInBrowser(page, uniqueEmail('jobs'));
  await page.goto('/dashboard/jobs');
  t.ok(await page.getByText('No jobs in the last 24 hours.').isVisible(), 'none at first');

  const apiKey = await createKeyInBrowser(page, 'jobs');
  // A free workspace may call ten times a minute: polling the job on a slow machine went past that.
  const { workspaceId } = (await request<Usage>(stack.baseUrl, '/usage', { apiKey })).body;
  await setLimitsInForce(stack, { workspaceId, apiKey }, { rateLimit: 1000 });
  const created = await createJob(stack, apiKey, { keyword: 'vintage camera', maxPages: 2, count: 20 });
  t.equal(created.status, 202, 'a job is started with the key');
  const job = await waitForJob(stack, apiKey, created.body.jobId);
  t.equal(job.status, 'completed');

  await page.goto('/dashboard/jobs');
  const row = page.locator(`tr[data-job-id="${job.jobId}"]`);
  t.match(await row.textContent(), /vintage camera/, 'the job is listed with its keyword');
  t.match(await row.textContent(), /completed/, 'its status');
  t.match(await row.textContent(), new RegExp(`${job.progress.pagesFetched} of 2 pages`), 'its progress');
  t.equal(Number(await row.getByRole('progressbar').getAttribute('value')), 2, 'as a progress bar');
  await saveScreenshot(page, 'jobs');

  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'Download CSV' }).click()]);
  t.equal(download.suggestedFilename(), `job-${job.jobId}.csv`);
  const stream = await download.createReadStream();
  let csv = '';
  for await (const chunk of stream) csv += String(chunk);
  t.match(csv, /^page,itemId,title,url,soldDate,/, 'the CSV downloads with the session (no key in the browser)');
  t.equal(csv.trim().split('\r\n').length - 1, job.progress.itemsCollected, 'one row per item collected');
  t.strictSame(problems, []);

  // Another workspace's job, even by its exact address, is not found.
  const stranger = new FormClient(stack.baseUrl);
  await stranger.signUp(uniqueEmail('stranger'));
  const theirs = await stranger.get(`/dashboard/jobs/${job.jobId}/download.csv`);
  t.equal(theirs.status, 404, 'another workspace\'s job: 404');
  t.match(theirs.headers.get('content-type'), /^text\/html/);
  t.notMatch((await stranger.get('/dashboard/jobs')).text, new RegExp(job.jobId), 'and not listed for it');
});
