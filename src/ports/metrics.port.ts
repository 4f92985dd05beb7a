/** What the HTTP layer records about each answered API request. Labels never name a person. */
export interface RequestMetrics {
  /** One answer of `operation` with `status`, after `seconds`. */
  requestAnswered(operation: string, status: number, seconds: number): void;
}

/** The metrics as a scraper reads them (the Prometheus text format). */
export interface MetricsExposition {
  readonly contentType: string;
  render(): Promise<string>;
}
