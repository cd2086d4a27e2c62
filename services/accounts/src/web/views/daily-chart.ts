import type { DayCount } from '../../dashboard/usage-by-day-repository.js';
import { html, type SafeHtml } from '../html.js';
import { formatNumber, plural } from './format.js';

const WIDTH = 760;
const HEIGHT = 220;
const PAD = { top: 14, right: 12, bottom: 28, left: 44 };

/**
 * The top of the scale: four equal whole steps of 1, 2, 2.5 or 5 times a power of ten, the smallest
 * that reaches `max` (so that the axis reads 0, 25, 50, 75, 100 and never 0, 1.75, 3.5…).
 */
export function scaleTop(max: number): number {
  const quarter = Math.max(1, max / 4);
  const power = 10 ** Math.floor(Math.log10(quarter));
  const steps = power >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  const step = steps.find((candidate) => candidate * power >= quarter)! * power;
  return step * 4;
}

/**
 * Requests per day of the month as an SVG bar chart, drawn on the server (no script): charged
 * requests in the accent colour, the others (failures, free lookups) stacked above them in a lighter
 * one. Colours come from classes in our stylesheet (the policy allows no inline style). For screen
 * readers the SVG has a title and a summary, and the same numbers follow as a table.
 */
export function dailyChart(days: DayCount[], today: string, monthLabel: string): SafeHtml {
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const top = scaleTop(Math.max(0, ...days.map((day) => day.total)));
  const slot = plotWidth / days.length;
  const barWidth = Math.max(2, slot * 0.68);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const total = days.reduce((sum, day) => sum + day.total, 0);
  const charged = days.reduce((sum, day) => sum + day.charged, 0);
  const ticks = [0, top / 4, top / 2, (3 * top) / 4, top];
  const summary = `${plural(total, 'request')} in ${monthLabel} so far, ${formatNumber(charged)} of them charged.`;
  const pastDays = days.filter((day) => day.day <= today);

  const bars = days.map((day, index) => {
    const x = PAD.left + index * slot + (slot - barWidth) / 2;
    const chargedTop = y(day.charged);
    const totalTop = y(day.total);
    const label = `${day.day}: ${formatNumber(day.total)} requests, ${formatNumber(day.charged)} charged`;
    return html`<g><title>${label}</title>
      ${day.total > day.charged ? html`<rect class="bar-free" x="${x.toFixed(1)}" y="${totalTop.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(chargedTop - totalTop).toFixed(1)}"></rect>` : ''}
      ${day.charged > 0 ? html`<rect class="bar-charged" x="${x.toFixed(1)}" y="${chargedTop.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(y(0) - chargedTop).toFixed(1)}"></rect>` : ''}
    </g>`;
  });
  const dayLabels = days.map((day, index) => {
    const dayNumber = Number(day.day.slice(8));
    const isToday = day.day === today;
    const nearToday = Math.abs(Number(today.slice(8)) - dayNumber) <= 1 && !isToday;
    if (!isToday && (nearToday || !(dayNumber === 1 || dayNumber % 5 === 0))) return html``;
    const x = PAD.left + index * slot + slot / 2;
    return html`<text x="${x.toFixed(1)}" y="${HEIGHT - 8}" text-anchor="middle" ${isToday ? html`class="today"` : ''}>${isToday ? `${dayNumber} (today)` : dayNumber}</text>`;
  });

  return html`<figure class="chart-figure">
    <svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-summary" xmlns="http://www.w3.org/2000/svg">
      <title id="chart-title">Requests per day, ${monthLabel}</title>
      <desc id="chart-summary">${summary}</desc>
      ${ticks.map((tick) => html`<line class="grid-line" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}"></line>
        <text x="${PAD.left - 6}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end">${formatNumber(tick)}</text>`)}
      <line class="axis" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(0)}" y2="${y(0)}"></line>
      ${bars}
      ${dayLabels}
    </svg>
    <ul class="legend" aria-hidden="true"><li><span class="swatch charged"></span>Charged</li><li><span class="swatch free"></span>Not charged (failures, usage and history lookups)</li></ul>
    <figcaption class="muted">${summary}</figcaption>
    <details>
      <summary>Show as a table</summary>
      <div class="table-wrap"><table>
        <caption>Requests per day, ${monthLabel}</caption>
        <thead><tr><th scope="col">Day</th><th scope="col" class="num">Requests</th><th scope="col" class="num">Charged</th></tr></thead>
        <tbody>${pastDays.map((day) => html`<tr><td>${day.day}</td><td class="num">${formatNumber(day.total)}</td><td class="num">${formatNumber(day.charged)}</td></tr>`)}</tbody>
      </table></div>
    </details>
  </figure>`;
}
