/**
 * The Sharing tab (docs/patient-app.md): who may read the signed-in person's record and what, an
 * invitation to someone, revoking with a confirmation; invitations to the person, to accept or
 * decline; records shared with them, to stop reading. Every refusal is said in the app's own words (refusal-words.ts).
 */
import { h, section, uniqueId, type Child } from './dom.js';
import type { Lang, Words } from './i18n.js';
import type { Grant, GrantBody } from './sharing-api.js';
import {
  CATEGORY_NAMES, categoriesWords, confirmQuestion, endLabel, EVERYTHING, partyName, periodWords, SHARING_LABELS as L, statusWords,
} from './sharing-words.js';
import { sharingRefusal } from './refusal-words.js';

/** What the invitation form holds, kept across renders so a refusal leaves it as typed. */
export interface Draft { grantee: string; categories: Set<string>; endDate: string; purpose: string }

export interface SharingState {
  grants?: Grant[] | Error;
  /** Said after a change: what it did. */
  notice?: Words;
  /** Said after a refusal, the API's or the form's own, in the app's words. */
  error?: Words;
  /** The grant whose ending waits for a "yes". */
  confirming?: string;
  draft: Draft;
}

export interface SharingActions {
  invite(body: GrantBody): void;
  accept(grant: Grant): void;
  decline(grant: Grant): void;
  end(grant: Grant): void;
  confirm(grantId: string | undefined): void;
  /** Said before anything is sent (nothing chosen): the form's own refusal. */
  refuse(message: Words): void;
}

export const emptyDraft = (): Draft => ({ grantee: '', categories: new Set(), endDate: '', purpose: '' });

const open = (g: Grant) => g.status === 'pending' || g.status === 'active';

function button(label: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', ...attrs }, label);
  b.addEventListener('click', onClick);
  return b;
}

function details(grant: Grant, lang: Lang): HTMLElement {
  const rows: [string, string | undefined][] = [
    [L.reads[lang], categoriesWords(grant.categories, lang)],
    [L.period[lang], periodWords(grant, lang)],
    [L.status[lang], statusWords(grant, lang)],
    [L.why[lang], grant.purpose],
  ];
  return h('dl', {}, ...rows.flatMap(([t, d]) => (d === undefined || d === '' ? [] : [h('dt', {}, t), h('dd', {}, d)])));
}

/** The end button, or in its place the question and its two answers, focus on the question. */
function ending(grant: Grant, state: SharingState, lang: Lang, act: SharingActions): Child {
  if (state.confirming !== grant.id) return button(endLabel(grant, lang), () => act.confirm(grant.id), { 'data-grant': grant.id });
  const id = uniqueId('confirm');
  return h('div', { class: 'confirm', role: 'group', 'aria-labelledby': id },
    h('p', { id, tabindex: '-1', class: 'confirm-question' }, confirmQuestion(grant, lang)),
    h('div', { class: 'actions' },
      button(L.yesEnd[lang], () => act.end(grant), { class: 'danger' }),
      button(L.cancel[lang], () => act.confirm(undefined))));
}

function card(grant: Grant, title: string, lang: Lang, ...actions: Child[]): HTMLElement {
  return h('li', { class: 'card' }, h('h3', {}, title), details(grant, lang), ...actions);
}

function list(items: HTMLElement[], none: string): HTMLElement {
  return items.length === 0 ? h('p', {}, none) : h('ul', { class: 'cards' }, ...items);
}

function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
  const id = input.id;
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  if (hintId !== undefined) input.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' }, h('label', { for: id }, label), hint === undefined ? null : h('p', { id: hintId, class: 'hint' }, hint), input);
}

function inviteForm(state: SharingState, lang: Lang, act: SharingActions): HTMLElement {
  const { draft } = state;
  const grantee = h('input', { id: 'invite-grantee', name: 'grantee', type: 'text', inputmode: 'numeric', autocomplete: 'off', required: '', value: draft.grantee });
  grantee.addEventListener('input', () => { draft.grantee = grantee.value; });
  const boxes = [...Object.keys(CATEGORY_NAMES), EVERYTHING].map((category) => {
    const id = `invite-category-${category === EVERYTHING ? 'all' : category}`;
    const box = h('input', { id, type: 'checkbox', name: 'categories', value: category });
    box.checked = draft.categories.has(category);
    box.addEventListener('change', () => { if (box.checked) draft.categories.add(category); else draft.categories.delete(category); });
    const words = category === EVERYTHING ? L.everything[lang] : CATEGORY_NAMES[category]?.[lang] ?? category;
    return h('div', { class: 'check' }, box, h('label', { for: id }, words));
  });
  const endDate = h('input', { id: 'invite-end', name: 'validTo', type: 'date', value: draft.endDate });
  endDate.addEventListener('input', () => { draft.endDate = endDate.value; });
  const purpose = h('textarea', { id: 'invite-purpose', name: 'purpose', maxlength: '200', rows: '2' });
  purpose.value = draft.purpose;
  purpose.addEventListener('input', () => { draft.purpose = purpose.value; });
  const form = h('form', { class: 'invite', novalidate: '' },
    field(L.grantee[lang], grantee, L.granteeHint[lang]),
    h('fieldset', {}, h('legend', {}, L.what[lang]), h('div', { class: 'checks' }, ...boxes)),
    field(L.endDate[lang], endDate, L.endDateHint[lang]),
    field(L.purpose[lang], purpose),
    h('button', { type: 'submit', class: 'primary' }, L.send[lang]));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (draft.categories.size === 0) return act.refuse(L.chooseSomething);
    const categories = draft.categories.has(EVERYTHING) ? [EVERYTHING] : [...draft.categories];
    act.invite({
      grantee: draft.grantee.trim(), categories,
      ...(draft.endDate === '' ? {} : { validTo: `${draft.endDate}T23:59:59` }),
      ...(draft.purpose.trim() === '' ? {} : { purpose: draft.purpose.trim() }),
    });
  });
  return form;
}

/** The tab's content: its heading, what was just done or refused, and its four parts. */
export function sharingView(state: SharingState, lang: Lang, act: SharingActions): Node[] {
  const heading = h('h1', { id: 'sharing', tabindex: '-1' }, L.tab[lang]);
  const told: (Node | null)[] = [
    state.error === undefined ? null : h('p', { class: 'error', role: 'alert', id: 'sharing-error' }, `${L.failed[lang]}: ${state.error[lang]}`),
    state.notice === undefined ? null : h('p', { class: 'notice', role: 'status' }, state.notice[lang]),
  ];
  const { grants } = state;
  if (grants === undefined) return [heading];
  if (grants instanceof Error) return [heading, h('p', { class: 'error', role: 'alert' }, `${L.listFailed[lang]}: ${sharingRefusal(grants)[lang]}`)];
  const given = grants.filter((g) => g.role === 'grantor' && open(g));
  const invitations = grants.filter((g) => g.role === 'grantee' && g.status === 'pending');
  const received = grants.filter((g) => g.role === 'grantee' && g.status === 'active');
  const ended = grants.filter((g) => !open(g));
  const parts: (Node | null)[] = [heading, ...told, h('p', {}, L.intro[lang]),
    section(L.given[lang], 2, list(given.map((g) => card(g, partyName(g.grantee), lang, ending(g, state, lang, act))), L.givenNone[lang])),
    section(L.invite[lang], 2, h('p', {}, L.inviteIntro[lang]), inviteForm(state, lang, act)),
    section(L.toMe[lang], 2, list(invitations.map((g) => card(g, partyName(g.grantor), lang, h('div', { class: 'actions' },
      button(`${L.accept[lang]}: ${partyName(g.grantor)}`, () => act.accept(g), { class: 'primary' }),
      button(`${L.decline[lang]}: ${partyName(g.grantor)}`, () => act.decline(g))))), L.toMeNone[lang])),
    section(L.received[lang], 2, received.length === 0 ? null : h('p', {}, L.receivedHow[lang]),
      list(received.map((g) => card(g, partyName(g.grantor), lang, ending(g, state, lang, act))), L.receivedNone[lang])),
    ended.length === 0 ? null : section(L.ended[lang], 2,
      h('ul', { class: 'cards' }, ...ended.map((g) => card(g, partyName(g.role === 'grantor' ? g.grantee : g.grantor), lang)))),
  ];
  return parts.filter((n): n is Node => n !== null);
}
