/** The service's memory over time: RSS from /proc/<pid>/status, heap in use from its own /metrics. */
import type { ChildNode } from './children.js';

export interface MemorySample {
  /** Seconds since the load started. */
  t: number;
  rss: number;
  /** `pdas_nodejs_heap_size_used_bytes`; undefined when /metrics did not answer. */
  heapUsed: number | undefined;
}

/** One value of a Prometheus text exposition (a series without labels). */
export function metricValue(text: string, name: string): number | undefined {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})?\\s+([0-9.eE+-]+)\\s*$`, 'm').exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** `origin`: the service's metrics listener (METRICS_PORT), not its API. */
export async function scrapeMetrics(origin: string): Promise<string | undefined> {
  try {
    const res = await fetch(`${origin}/metrics`, { signal: AbortSignal.timeout(2000) });
    return res.ok ? await res.text() : undefined;
  } catch {
    return undefined;
  }
}

export class MemorySampler {
  readonly samples: MemorySample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private t0 = 0;
  private busy = false;

  constructor(private readonly service: ChildNode, private readonly metricsOrigin: string, private readonly intervalMs: number) {}

  start(): void {
    this.t0 = performance.now();
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sample();
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const t = (performance.now() - this.t0) / 1000;
      const rss = await this.service.rssBytes();
      if (rss === undefined) return;
      const metrics = await scrapeMetrics(this.metricsOrigin);
      this.samples.push({ t, rss, heapUsed: metrics === undefined ? undefined : metricValue(metrics, 'pdas_nodejs_heap_size_used_bytes') });
    } finally {
      this.busy = false;
    }
  }
}
