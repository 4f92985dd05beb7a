/**
 * Elements built from text nodes only: record text never passes through an HTML parser here, so
 * whatever a note says is shown as written and can run nothing.
 */
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K, attrs: Readonly<Record<string, string | undefined>> = {}, ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) el.setAttribute(name, value);
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

let ids = 0;
/** An id unique on the page, for aria-labelledby and label/for pairs. */
export const uniqueId = (prefix: string): string => `${prefix}-${++ids}`;

/** A section with a real heading that names it for assistive technology. */
export function section(title: string, level: 2 | 3, ...children: Child[]): HTMLElement {
  const id = uniqueId('h');
  return h('section', { 'aria-labelledby': id }, h(level === 2 ? 'h2' : 'h3', { id }, title), ...children);
}

/**
 * A term and its descriptions (a status and how sure it is: HTML lets a term have several), each
 * left out when there is nothing to say, the term too when nothing is left.
 */
export function pair(term: string, ...descriptions: (string | undefined)[]): Node[] {
  const said = descriptions.filter((d): d is string => d !== undefined && d !== '');
  return said.length === 0 ? [] : [h('dt', {}, term), ...said.map((d) => h('dd', {}, d))];
}

/**
 * A table that scrolls sideways on a narrow screen: the scrolling box is focusable and named, so a
 * keyboard can scroll it too. A `stacked` one (too many columns for a phone) shows each row as a block
 * there instead, each cell under its column's name (`data-label`, style.css); its roles are written
 * out, since a table displayed as blocks loses them in some browsers.
 */
export function table(
  label: string, caption: string | undefined, head: readonly string[], rows: readonly (readonly Child[])[], stacked = false,
): HTMLElement {
  const role = (name: string) => (stacked ? name : undefined);
  return h('div', { class: stacked ? 'table-wrap stacked' : 'table-wrap', role: 'region', 'aria-label': label, tabindex: '0' },
    h('table', { role: role('table') },
      caption === undefined ? null : h('caption', {}, caption),
      h('thead', { role: role('rowgroup') }, h('tr', { role: role('row') }, ...head.map((c) => h('th', { scope: 'col', role: role('columnheader') }, c)))),
      h('tbody', { role: role('rowgroup') }, ...rows.map((r) => h('tr', { role: role('row') },
        ...r.map((c, i) => h('td', { role: role('cell'), 'data-label': stacked ? head[i] : undefined }, c)))))));
}
