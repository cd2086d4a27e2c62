import { INCLUDABLE_REASONS, type IncludableReason } from '@comps/shared/contract/comps';
import { BUYING_FORMATS, ITEM_CONDITIONS, SEARCH_DEFAULTS } from '@comps/shared/contract/listing';
import { DEFAULT_MARKET_SITE, MARKET_SITES, SITE_CURRENCY } from '@comps/shared/contract/market-sites';
import { SCHEDULES, TRACKED_SEARCH_LIMITS, trackedSearchCreateSchema, type TrackedSearchCreate } from '@comps/shared/contract/tracked-search';
import { SEARCH_TEXT_MAX } from '@comps/shared/contract/search-fields';
import { html, type SafeHtml } from '../html.js';
import { EXCLUSION_LABELS } from './comps-summary.js';
import { notice } from './layout.js';

/**
 * The form that creates a tracked search: its fields as the browser sends them (strings, kept to
 * be shown again when refused), read into the API's body by the API's own schema, and drawn.
 */

export interface TrackedSearchFormValues {
  keyword: string;
  name: string;
  marketSite: string;
  categoryId: string;
  itemCondition: string;
  minPrice: string;
  maxPrice: string;
  buyingFormat: string;
  exactMatch: boolean;
  schedule: string;
  maxPagesPerRun: string;
  statsInclude: string[];
}

export type TrackedSearchField = keyof TrackedSearchFormValues;

export const EMPTY_FORM: TrackedSearchFormValues = {
  keyword: '',
  name: '',
  marketSite: DEFAULT_MARKET_SITE,
  categoryId: SEARCH_DEFAULTS.categoryId,
  itemCondition: SEARCH_DEFAULTS.itemCondition,
  minPrice: '',
  maxPrice: '',
  buyingFormat: SEARCH_DEFAULTS.buyingFormat,
  exactMatch: SEARCH_DEFAULTS.exactMatch,
  schedule: 'daily',
  maxPagesPerRun: String(TRACKED_SEARCH_LIMITS.maxPagesPerRun.default),
  statsInclude: [],
};

export const FIELD_LABELS: Record<TrackedSearchField, string> = {
  keyword: 'Keyword',
  name: 'Name',
  marketSite: 'Site',
  categoryId: 'Category',
  itemCondition: 'Condition',
  minPrice: 'Lowest price',
  maxPrice: 'Highest price',
  buyingFormat: 'Buying format',
  exactMatch: 'Exact match',
  schedule: 'Schedule',
  maxPagesPerRun: 'Pages per run',
  statsInclude: 'Count anyway',
};

export const CONDITION_CHOICES: Record<(typeof ITEM_CONDITIONS)[number], string> = { any: 'Any condition', new: 'New', used: 'Used' };
export const FORMAT_CHOICES: Record<(typeof BUYING_FORMATS)[number], string> = { all: 'All formats', auction: 'Auction', buyItNow: 'Buy It Now', acceptsOffers: 'Accepts offers' };
export const SCHEDULE_CHOICES: Record<(typeof SCHEDULES)[number], string> = { hourly: 'Every hour', daily: 'Every day', weekly: 'Every week' };

/** A field left empty is a field not given: the API's default applies. */
const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
/** A number field as the API's JSON would carry it; what is not a number stays text, for the schema to refuse in words. */
const numeric = (value: string) => {
  const given = optional(value);
  return given !== undefined && /^-?\d+(\.\d+)?$/.test(given) ? Number(given) : given;
};

export type FormReading = { ok: true; body: TrackedSearchCreate } | { ok: false; errors: Partial<Record<TrackedSearchField, string>> };

/** The form read by the API's schema (so the dashboard accepts exactly what POST /v1/tracked-searches does), its refusals by field. */
export function readTrackedSearchForm(values: TrackedSearchFormValues): FormReading {
  const parsed = trackedSearchCreateSchema.safeParse({
    keyword: values.keyword,
    name: optional(values.name),
    marketSite: values.marketSite,
    categoryId: optional(values.categoryId),
    itemCondition: values.itemCondition,
    minPrice: numeric(values.minPrice),
    maxPrice: numeric(values.maxPrice),
    buyingFormat: values.buyingFormat,
    exactMatch: values.exactMatch,
    schedule: values.schedule,
    maxPagesPerRun: numeric(values.maxPagesPerRun),
    statsInclude: values.statsInclude,
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: Partial<Record<TrackedSearchField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'keyword') as TrackedSearchField;
    // The schema names the other field by its JSON name; the form by its label.
    const message = field === 'minPrice' && issue.code === 'custom' ? 'must not be above the highest price' : issue.message;
    errors[field] ??= message;
  }
  return { ok: false, errors };
}

export interface TrackedSearchFormView {
  csrfToken: string;
  values: TrackedSearchFormValues;
  errors?: Partial<Record<TrackedSearchField, string>>;
  /** A refusal of the whole form (the plan's number reached). */
  error?: string | null;
}

function fieldError(errors: TrackedSearchFormView['errors'], field: TrackedSearchField): SafeHtml {
  const message = errors?.[field];
  return message ? html`<span class="field-error" id="ts-${field}-error">${FIELD_LABELS[field]} ${message}.</span>` : html``;
}

/** `aria-invalid` and the error's id on a field the form refused. */
function invalid(errors: TrackedSearchFormView['errors'], field: TrackedSearchField, hint?: string): SafeHtml {
  const described = [errors?.[field] ? `ts-${field}-error` : '', hint ?? ''].filter(Boolean).join(' ');
  return html`${errors?.[field] ? html`aria-invalid="true"` : ''} ${described ? html`aria-describedby="${described}"` : ''}`;
}

function options(choices: Record<string, string>, selected: string): SafeHtml[] {
  return Object.entries(choices).map(([value, label]) => html`<option value="${value}" ${value === selected ? html`selected` : ''}>${label}</option>`);
}

export function trackedSearchForm(view: TrackedSearchFormView): SafeHtml {
  const { values, errors } = view;
  const problems = errors ? (Object.keys(errors) as TrackedSearchField[]) : [];
  const sites = Object.fromEntries(MARKET_SITES.map((site) => [site, `${site} (${SITE_CURRENCY[site]})`]));
  const pages = TRACKED_SEARCH_LIMITS.maxPagesPerRun;
  return html`${notice('error', view.error)}
    ${problems.length > 0 ? notice('error', html`The tracked search was not created: ${problems.map((field, index) => html`${index > 0 ? '; ' : ''}${FIELD_LABELS[field]} ${errors![field]!}`)}.`) : ''}
    <form class="tracked-form" method="post" action="/dashboard/tracked-searches" novalidate>
      <input type="hidden" name="_csrf" value="${view.csrfToken}">
      <div class="tracked-fields">
        <div class="field wide">
          <label for="ts-keyword">Keyword</label>
          <input id="ts-keyword" name="keyword" type="text" required maxlength="${SEARCH_TEXT_MAX}" value="${values.keyword}" placeholder="e.g. nintendo switch oled" ${invalid(errors, 'keyword', 'ts-keyword-hint')}>
          <span class="hint" id="ts-keyword-hint">As on the marketplace: <code>-word</code> leaves a word out.</span>
          ${fieldError(errors, 'keyword')}
        </div>
        <div class="field">
          <label for="ts-name">Name <span class="hint">(optional)</span></label>
          <input id="ts-name" name="name" type="text" maxlength="${TRACKED_SEARCH_LIMITS.name.max}" value="${values.name}" placeholder="the keyword" ${invalid(errors, 'name')}>
          ${fieldError(errors, 'name')}
        </div>
        <div class="field">
          <label for="ts-site">Site</label>
          <select id="ts-site" name="marketSite" ${invalid(errors, 'marketSite')}>${options(sites, values.marketSite)}</select>
          ${fieldError(errors, 'marketSite')}
        </div>
        <div class="field">
          <label for="ts-condition">Condition</label>
          <select id="ts-condition" name="itemCondition" ${invalid(errors, 'itemCondition')}>${options(CONDITION_CHOICES, values.itemCondition)}</select>
          ${fieldError(errors, 'itemCondition')}
        </div>
        <div class="field">
          <label for="ts-format">Buying format</label>
          <select id="ts-format" name="buyingFormat" ${invalid(errors, 'buyingFormat')}>${options(FORMAT_CHOICES, values.buyingFormat)}</select>
          ${fieldError(errors, 'buyingFormat')}
        </div>
        <div class="field">
          <label for="ts-min-price">Lowest price</label>
          <input id="ts-min-price" name="minPrice" type="text" inputmode="decimal" value="${values.minPrice}" ${invalid(errors, 'minPrice')}>
          ${fieldError(errors, 'minPrice')}
        </div>
        <div class="field">
          <label for="ts-max-price">Highest price</label>
          <input id="ts-max-price" name="maxPrice" type="text" inputmode="decimal" value="${values.maxPrice}" ${invalid(errors, 'maxPrice')}>
          ${fieldError(errors, 'maxPrice')}
        </div>
        <div class="field">
          <label for="ts-category">Category</label>
          <input id="ts-category" name="categoryId" type="text" inputmode="numeric" value="${values.categoryId}" ${invalid(errors, 'categoryId', 'ts-category-hint')}>
          <span class="hint" id="ts-category-hint">The marketplace's category number; 0 for all.</span>
          ${fieldError(errors, 'categoryId')}
        </div>
        <div class="field">
          <label for="ts-schedule">Schedule</label>
          <select id="ts-schedule" name="schedule" ${invalid(errors, 'schedule')}>${options(SCHEDULE_CHOICES, values.schedule)}</select>
          ${fieldError(errors, 'schedule')}
        </div>
        <div class="field">
          <label for="ts-pages">Pages per run</label>
          <input id="ts-pages" name="maxPagesPerRun" type="text" inputmode="numeric" value="${values.maxPagesPerRun}" ${invalid(errors, 'maxPagesPerRun', 'ts-pages-hint')}>
          <span class="hint" id="ts-pages-hint">${pages.min} to ${pages.max}. Each page is 200 sales and is charged one request; a run stops early once it finds nothing new.</span>
          ${fieldError(errors, 'maxPagesPerRun')}
        </div>
        <div class="field checkbox">
          <label><input name="exactMatch" type="checkbox" value="true" ${values.exactMatch ? html`checked` : ''}> Exact match</label>
          <span class="hint">Leave out rows the marketplace marks as loose matches.</span>
        </div>
      </div>
      <details class="count-anyway" ${values.statsInclude.length > 0 || errors?.statsInclude ? html`open` : ''}>
        <summary>Count anyway in the statistics</summary>
        <fieldset>
          <legend class="visually-hidden">Count anyway in the statistics</legend>
          ${INCLUDABLE_REASONS.map((reason: IncludableReason) => html`<label><input type="checkbox" name="statsInclude" value="${reason}" ${values.statsInclude.includes(reason) ? html`checked` : ''}> ${EXCLUSION_LABELS[reason]}</label>`)}
        </fieldset>
        ${fieldError(errors, 'statsInclude')}
      </details>
      <div class="actions"><button type="submit">Track this search</button></div>
    </form>`;
}
