/** The part of autocannon 8's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram { average: number; mean: number; p50: number; p90: number; p99: number; max: number; min: number; total: number; sent?: number }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    timeout?: number;
  }
  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
