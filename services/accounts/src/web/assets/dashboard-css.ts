/** The dashboard's whole stylesheet: ours, small, served as /dashboard/assets/dashboard.css. */
export const DASHBOARD_CSS = `
:root {
  --ink: #1c2230; --muted: #5b6475; --line: #dde1e8; --paper: #ffffff; --wash: #f5f6f9;
  --accent: #2f4ac7; --accent-ink: #ffffff; --accent-soft: #e7ebfb;
  --ok: #1d7a4a; --ok-soft: #e3f4ea; --bad: #b3261e; --bad-soft: #fbe9e7; --warn-soft: #fff6dc;
  --radius: 8px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--wash); line-height: 1.5;
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid #8fa2f0; outline-offset: 2px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
.skip-link { position: absolute; left: -999px; top: 0; background: var(--paper); padding: .5rem 1rem; }
.skip-link:focus { left: 1rem; z-index: 10; }

.site-header { background: var(--ink); color: #fff; }
.site-header .bar { max-width: 1200px; margin: 0 auto; padding: .6rem 1.25rem; display: flex; align-items: center; gap: 1.5rem; flex-wrap: wrap; }
.brand { color: #fff; font-weight: 700; text-decoration: none; font-size: 1.1rem; letter-spacing: .01em; }
.brand span { color: #9fb0ff; font-weight: 500; }
.site-nav { display: flex; gap: .25rem; flex-wrap: wrap; flex: 1; }
.site-nav a { color: #d5dbeb; text-decoration: none; padding: .35rem .7rem; border-radius: 6px; }
.site-nav a:hover { background: rgba(255,255,255,.08); color: #fff; }
.site-nav a[aria-current="page"] { background: rgba(255,255,255,.16); color: #fff; }
.account { display: flex; align-items: center; gap: .75rem; color: #c4cbe0; font-size: .9rem; }
.account form { margin: 0; }

main { width: 100%; max-width: 1200px; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; flex: 1; }
h1 { font-size: 1.6rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 0 0 .75rem; }
.lead { color: var(--muted); margin-top: -.5rem; }
.panel { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem; margin-bottom: 1.25rem; }
.grid { display: grid; gap: 1.25rem; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); }
.site-footer { color: var(--muted); font-size: .85rem; text-align: center; padding: 1rem; }

dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; font-weight: 600; }
.big-number { font-size: 1.9rem; font-weight: 700; }
.muted { color: var(--muted); }
.nowrap { white-space: nowrap; }
.small { font-size: .8rem; }

progress.usage { width: 100%; height: 1rem; appearance: none; border: none; border-radius: 999px; background: var(--accent-soft); overflow: hidden; }
progress.usage::-webkit-progress-bar { background: var(--accent-soft); border-radius: 999px; }
progress.usage::-webkit-progress-value { background: var(--accent); border-radius: 999px; }
progress.usage::-moz-progress-bar { background: var(--accent); border-radius: 999px; }
progress.usage.high::-webkit-progress-value { background: var(--bad); }
progress.usage.high::-moz-progress-bar { background: var(--bad); }
progress.job { width: 8rem; height: .6rem; vertical-align: middle; }

.chart-figure { margin: 0; }
.chart { width: 100%; height: auto; display: block; }
.chart .axis { stroke: var(--line); }
.chart .grid-line { stroke: #eef0f4; }
.chart text { fill: var(--muted); font-size: 11px; font-family: inherit; }
.chart .bar-charged { fill: var(--accent); }
.chart .bar-free { fill: #b8c3f2; }
.chart .today { fill: var(--ink); font-weight: 700; }
.legend { display: flex; gap: 1.25rem; font-size: .85rem; color: var(--muted); margin: .5rem 0 0; padding: 0; list-style: none; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .35rem; vertical-align: -1px; }
.swatch.charged { background: var(--accent); }
.swatch.free { background: #b8c3f2; }

form.stacked { display: grid; gap: .9rem; max-width: 26rem; }
form.inline { display: flex; gap: .75rem; align-items: end; flex-wrap: wrap; }
.field { display: grid; gap: .3rem; }
label { font-weight: 600; font-size: .92rem; }
.hint { color: var(--muted); font-size: .85rem; font-weight: 400; }
input[type=text], input[type=email], input[type=password], input[type=date] {
  font: inherit; padding: .5rem .65rem; border: 1px solid #b9c0cc; border-radius: 6px; background: #fff; min-width: 12rem;
}
input[readonly] { background: var(--wash); }
button, .button {
  font: inherit; font-weight: 600; cursor: pointer; border-radius: 6px; padding: .5rem 1rem; border: 1px solid var(--accent);
  background: var(--accent); color: var(--accent-ink); text-decoration: none; display: inline-block; line-height: 1.3; white-space: nowrap;
}
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
button.danger-outline { background: #fff; color: var(--bad); border-color: #e2b4b0; padding: .3rem .75rem; font-size: .9rem; }
button.link { background: none; border: none; color: #d5dbeb; padding: .25rem .5rem; text-decoration: underline; font-weight: 500; }
.actions { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; }

.notice { border-radius: var(--radius); padding: .8rem 1rem; margin-bottom: 1rem; border: 1px solid; }
.notice.error { background: var(--bad-soft); border-color: #efc2bd; color: #7a1a14; }
.notice.success { background: var(--ok-soft); border-color: #b9e0c8; color: #134d2f; }
.notice.info { background: var(--accent-soft); border-color: #c9d2f5; }
.notice.warning { background: var(--warn-soft); border-color: #efdc9f; }
.new-key { border: 2px solid var(--ok); background: var(--ok-soft); }
.new-key .key-row { display: flex; gap: .5rem; flex-wrap: wrap; }
.new-key input { flex: 1; min-width: 20rem; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }

table { width: 100%; border-collapse: collapse; font-size: .93rem; }
caption { text-align: left; color: var(--muted); padding-bottom: .5rem; }
th, td { text-align: left; padding: .55rem .6rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { color: var(--muted); font-weight: 600; font-size: .82rem; text-transform: uppercase; letter-spacing: .03em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
/* Positioned, so that a visually hidden header inside is placed within it, not beside the page (which widened it at 375 px). */
.table-wrap { overflow-x: auto; position: relative; }
.badge { display: inline-block; padding: .1rem .55rem; border-radius: 999px; font-size: .8rem; font-weight: 600; }
.badge.ok { background: var(--ok-soft); color: var(--ok); }
.badge.bad { background: var(--bad-soft); color: var(--bad); }
.badge.neutral { background: var(--wash); color: var(--muted); border: 1px solid var(--line); }
.badge.busy { background: var(--accent-soft); color: var(--accent); }
.pager { display: flex; gap: 1rem; justify-content: space-between; margin-top: 1rem; }

.auth { max-width: 28rem; margin: 2rem auto; }
.auth .panel { padding: 1.75rem; }
.auth h1 { margin-top: 0; }
pre.snippet { background: var(--ink); color: #e6e9f2; padding: 1rem; border-radius: var(--radius); overflow-x: auto; margin: 0; }
details summary { cursor: pointer; color: var(--accent); margin-top: .75rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
[hidden] { display: none !important; }
#api-reference { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); min-height: 20rem; }
/* Comps summary (explore, job and tracked-search pages) */
.comps-summary .headline { margin-bottom: 1rem; }
.comps-summary .headline .label { margin: 0; color: var(--muted); font-size: .9rem; }
.comps-summary .headline .big-number { margin: .1rem 0 .3rem; }
.comps-summary > .table-wrap { margin-bottom: 1rem; }
.comps-summary table caption { text-align: left; font-weight: 600; padding-bottom: .35rem; }
/* Webhooks pages (webhooks-page.ts, webhook-page.ts) */
input[type=url] { font: inherit; padding: .5rem .65rem; border: 1px solid #b9c0cc; border-radius: 6px; background: #fff; min-width: 0; width: 100%; }
input[aria-invalid="true"] { border-color: var(--bad); }
form.webhook-form { display: grid; gap: .9rem; max-width: 40rem; }
form.webhook-form input[type=text] { min-width: 0; width: 100%; }
fieldset.event-choices { border: 1px solid var(--line); border-radius: 6px; margin: 0; padding: .5rem .9rem .75rem; display: grid; gap: .35rem; min-width: 0; }
fieldset.event-choices legend { font-weight: 600; font-size: .92rem; padding: 0 .3rem; }
.event-choice { display: flex; gap: .5rem; align-items: baseline; }
.event-choice label { font-weight: 400; }
.event-choice .hint { display: inline; }
fieldset.event-choices > p.hint { margin: .25rem 0 0; }
ul.event-list { list-style: none; margin: 0; padding: 0; }
ul.event-list li { white-space: nowrap; }
.endpoint-url { overflow-wrap: anywhere; word-break: break-word; }
td.endpoint-url { min-width: 14rem; }
.endpoint-usage { margin-top: 0; }
dl.endpoint-facts { margin-bottom: 1rem; }
dl.endpoint-facts dd { min-width: 0; overflow-wrap: anywhere; }
.endpoint-actions form { margin: 0; }
.endpoint-actions button.danger-outline { padding: .5rem 1rem; font-size: inherit; }
@media (max-width: 480px) {
  dl.endpoint-facts { grid-template-columns: 1fr; gap: 0; }
  dl.endpoint-facts dd { margin-bottom: .5rem; }
}
.breadcrumb { margin: 0; font-size: .9rem; }
.breadcrumb a::before { content: "←"; margin-right: .3em; }
.badge.warn { background: var(--warn-soft); color: #7a5a00; border: 1px solid #efdc9f; }
.new-secret input { min-width: 0; }
table.delivery-log td { vertical-align: top; }
table.delivery-log form { margin: 0; }
button.small-button { padding: .3rem .75rem; font-size: .9rem; }
.notice ul { margin: 0; padding-left: 1.2rem; }
/* Tracked searches (the list with its create form, a tracked search's page, its price series chart) */
.tracked-fields { display: grid; gap: .9rem 1.25rem; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); margin-bottom: 1rem; }
.tracked-fields .field { align-content: start; }
.tracked-fields .field.wide { grid-column: 1 / -1; }
.tracked-fields input[type=text], .tracked-fields select { min-width: 0; width: 100%; }
.tracked-fields .field.wide input { max-width: 36rem; }
.tracked-form input[aria-invalid="true"], .tracked-form select[aria-invalid="true"] { border-color: var(--bad); }
.tracked-form .field.checkbox { align-content: end; }
.tracked-form .field.checkbox label, .count-anyway label { font-weight: 500; display: flex; gap: .45rem; align-items: center; }
.count-anyway { margin-bottom: 1rem; }
.count-anyway fieldset { border: none; margin: .5rem 0 0; padding: 0; display: grid; gap: .35rem; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); }
.field-error { color: var(--bad); font-size: .85rem; }
.tracked-actions { margin-bottom: 1rem; }
.tracked-actions form { margin: 0; }
.tracked-actions button.danger-outline { padding: .5rem 1rem; font-size: 1rem; }
.tracked-facts dd { font-weight: 500; overflow-wrap: anywhere; }
.period-form { margin-bottom: .25rem; }
.period-form input[type=date] { min-width: 10rem; }
.interval-links { display: flex; gap: .25rem; flex-wrap: wrap; margin: .75rem 0; }
.interval-links a { padding: .3rem .75rem; border: 1px solid var(--line); border-radius: 999px; text-decoration: none; font-size: .9rem; }
.interval-links a[aria-current="true"] { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); }
.series-chart .chart { max-width: 760px; }
.series-chart .chart text { font-size: 12px; }
.series-chart .legend { flex-wrap: wrap; gap: .25rem 1.25rem; }
.series-chart .legend li, .series-chart td { white-space: nowrap; }
/* Wide tables scroll in their box on a phone rather than squeeze a title to a word a line. */
.tracked-table { min-width: 54rem; }
.sales-table { min-width: 46rem; }
.runs-table { min-width: 44rem; }
.chart .series-band { fill: var(--accent); fill-opacity: .16; }
.chart .series-median { fill: none; stroke: var(--accent); stroke-width: 2.5; stroke-linejoin: round; stroke-linecap: round; }
.chart .series-point { fill: var(--accent); }
.chart text.series-none { font-size: 14px; fill: var(--ink); }
.swatch.series-median { background: var(--accent); height: .25rem; vertical-align: 3px; }
.swatch.series-band { background: #d6dcf5; }
/* Narrow screens: the chart shrinks to about half its drawn size, so its labels and lines are drawn larger to stay readable. */
@media (max-width: 600px) {
  .series-chart .chart text { font-size: 22px; }
  .chart text.series-none { font-size: 22px; }
  .chart .series-median { stroke-width: 4; }
/* Explore and job pages (views/explore-page.ts, views/job-page.ts, views/listings-view.ts, charts/price-histogram.ts, charts/sales-scatter.ts) */
.explore-form { display: grid; gap: .9rem 1.25rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); align-items: start; }
.explore-form .keyword, .explore-form .choices.wide, .explore-form .actions, .explore-form .hint { grid-column: 1 / -1; }
.explore-form input[type=text] { width: 100%; min-width: 0; }
select { font: inherit; padding: .45rem .6rem; border: 1px solid #b9c0cc; border-radius: 6px; background: #fff; width: 100%; }
fieldset.choices { border: 1px solid var(--line); border-radius: 6px; margin: 0; padding: .5rem .8rem .65rem; display: flex; flex-wrap: wrap; gap: .35rem 1.1rem; min-width: 0; }
fieldset.choices legend { font-weight: 600; font-size: .92rem; padding: 0 .25rem; }
fieldset.choices label { font-weight: 400; display: inline-flex; gap: .35rem; align-items: center; }
.explore-form .hint { margin: 0; }
.job-facts { margin-top: .9rem; }
.job-actions { margin-top: 1rem; }
.comps-charts { display: grid; gap: 1.5rem; }
.comps-charts .chart-figure { min-width: 0; }
/* Drawn for about 760 px: wider, the labels would grow past reading size. */
.comps-charts .chart { max-width: 900px; }
.chart .bar-counted { fill: var(--accent); }
.chart .marker-median line { stroke: var(--bad); stroke-width: 2; }
.chart .marker-fence line { stroke: var(--ink); stroke-width: 1.5; stroke-dasharray: 5 4; }
.chart .marker-label { fill: var(--ink); font-weight: 600; }
.chart .sale-point { fill: var(--accent); fill-opacity: .55; }
.chart .median-line { fill: none; stroke: var(--bad); stroke-width: 2; }
.chart .median-point { fill: var(--bad); }
.swatch.counted, .swatch.sale { background: var(--accent); }
.swatch.median { background: var(--bad); height: .2rem; vertical-align: .2rem; }
.swatch.fence { background: none; border-top: 2px dashed var(--ink); height: 0; vertical-align: .25rem; }
.legend { flex-wrap: wrap; }
table.listings td { vertical-align: top; }
table.listings .listing-title { min-width: 14rem; max-width: 28rem; }
@media (max-width: 640px) {
  /* A phone shows a chart at a readable size, scrolled sideways, rather than shrunk to fit. */
  .comps-charts .chart-figure { overflow-x: auto; }
  .comps-charts .chart { min-width: 640px; }
  .comps-charts .chart text { font-size: 15px; }
}
@media (max-width: 480px) {
  main { padding: 1rem .75rem 2rem; }
  .panel { padding: .9rem; }
  .explore-form .actions button { flex: 1 1 100%; }
}
`;
