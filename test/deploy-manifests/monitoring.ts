/**
 * The queries of deploy/prometheus/alerts.yaml and deploy/grafana/patient-data-access.json, and the
 * metric names they use, to compare with what the service exports.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { deployPath } from './tools.js';

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export const alertRules = (): AlertRule[] =>
  (parse(readFileSync(deployPath('prometheus', 'alerts.yaml'), 'utf8')) as { groups: Array<{ rules: AlertRule[] }> }).groups.flatMap((g) => g.rules);

interface Panel { title?: string; targets?: Array<{ expr?: string }>; panels?: Panel[] }

/** Every PromQL query of the dashboard, its template variables' included, with where it is. */
export function dashboardQueries(): Array<{ where: string; expr: string }> {
  const dashboard = JSON.parse(readFileSync(deployPath('grafana', 'patient-data-access.json'), 'utf8')) as {
    panels: Panel[]; templating: { list: Array<{ name: string; query?: string | { query?: string } }> };
  };
  const fromPanels = (panels: Panel[]): Array<{ where: string; expr: string }> => panels.flatMap((p) => [
    ...(p.targets ?? []).flatMap((t) => (t.expr === undefined ? [] : [{ where: `panel "${p.title ?? ''}"`, expr: t.expr }])),
    ...fromPanels(p.panels ?? []),
  ]);
  const variables = dashboard.templating.list.flatMap((v) => {
    const query = typeof v.query === 'string' ? v.query : v.query?.query;
    // label_values(metric, label): the metric is what must exist.
    const metric = /^label_values\(\s*([^,)]+)/.exec(query ?? '')?.[1];
    return metric === undefined ? [] : [{ where: `variable $${v.name}`, expr: metric }];
  });
  return [...fromPanels(dashboard.panels), ...variables];
}

// group_left and group_right without a label list take no parentheses.
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'group_left', 'group_right']);

/**
 * The metric names a PromQL expression reads: what is left of its identifiers once strings, label
 * matchers, ranges, grouping clauses, Grafana variables, functions and keywords are taken out.
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w.])([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)) {
    const [, name, call] = m;
    if (call !== undefined || name === undefined || KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names];
}

/** `# TYPE name type` of a Prometheus text exposition: every metric it declares, with its type. */
export function declaredMetrics(exposition: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const m of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(m[1] as string, m[2] as string);
  return types;
}

/** Whether `name` is a series of a declared metric: the metric itself, or a histogram's or summary's parts. */
export function isExported(name: string, declared: Map<string, string>): boolean {
  if (declared.has(name)) return true;
  const part = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (part === null) return false;
  const type = declared.get(part[1] as string);
  return type === 'histogram' || (type === 'summary' && part[2] !== 'bucket');
}
