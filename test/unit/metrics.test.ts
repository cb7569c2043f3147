import { describe, expect, it } from 'vitest';
import { DocpipeMetrics, type CountedQueue } from '../../src/base/metrics/index.js';

/** One metric's samples as `labels -> value`, read through prom-client's own JSON. */
async function samples(metrics: DocpipeMetrics, name: string): Promise<Record<string, number>> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  if (!metric) throw new Error(`no metric ${name}`);
  return Object.fromEntries(
    metric.values.map((v) => {
      const named = (v as { metricName?: string }).metricName ?? name;
      return [`${named}${JSON.stringify(v.labels)}`, v.value];
    }),
  );
}

const queue = (name: string, counts: Record<string, number>): CountedQueue => ({
  name,
  getJobCounts: () => Promise.resolve(counts),
});

describe('DocpipeMetrics', () => {
  it('keeps a registry of its own: two instances count apart, and the global one stays empty', async () => {
    const { register } = await import('prom-client');
    const one = new DocpipeMetrics({ processMetrics: false });
    const two = new DocpipeMetrics({ processMetrics: false });
    one.recordHttp('GET', '/healthz', 200, 0.001);
    expect(await samples(one, 'docpipe_http_requests_total')).toEqual({
      'docpipe_http_requests_total{"method":"GET","route":"/healthz","status":"200"}': 1,
    });
    expect(await samples(two, 'docpipe_http_requests_total')).toEqual({});
    expect(register.getMetricsAsArray().filter((m) => m.name.startsWith('docpipe_'))).toEqual([]);
  });

  it('includes Node process metrics unless told not to', async () => {
    const withProcess = await new DocpipeMetrics().text();
    expect(withProcess).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(withProcess).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(await new DocpipeMetrics({ processMetrics: false }).text()).not.toMatch(/process_cpu/);
  });

  it('labels HTTP requests by method, route pattern and status, with unknown ones bounded', async () => {
    const m = new DocpipeMetrics({ processMetrics: false });
    m.recordHttp('GET', '/v3/api/documents/:id', 200, 0.01);
    m.recordHttp('GET', '/v3/api/documents/:id', 404, 0.02);
    m.recordHttp('GET', '/v3/api/documents/:id', 200, 0.03);
    m.recordHttp('BREW', undefined, 404, 0.001);
    m.recordHttp('POST', '', 999, 0.001);
    expect(await samples(m, 'docpipe_http_requests_total')).toEqual({
      'docpipe_http_requests_total{"method":"GET","route":"/v3/api/documents/:id","status":"200"}': 2,
      'docpipe_http_requests_total{"method":"GET","route":"/v3/api/documents/:id","status":"404"}': 1,
      'docpipe_http_requests_total{"method":"OTHER","route":"unmatched","status":"404"}': 1,
      'docpipe_http_requests_total{"method":"POST","route":"unmatched","status":"other"}': 1,
    });
    const durations = await samples(m, 'docpipe_http_request_duration_seconds');
    expect(
      durations[
        'docpipe_http_request_duration_seconds_count{"method":"GET","route":"/v3/api/documents/:id"}'
      ],
    ).toBe(3);
    expect(
      durations[
        'docpipe_http_request_duration_seconds_sum{"method":"GET","route":"/v3/api/documents/:id"}'
      ],
    ).toBeCloseTo(0.06, 10);
  });

  it('records a document job: outcome, queue wait, each render step, in seconds', async () => {
    const m = new DocpipeMetrics({ processMetrics: false });
    m.recordDocumentJob({
      queueWaitMs: 1500,
      durationMs: 900,
      outcome: 'rendered',
      timings: { cache: 1, sniff: 2, fill: 30, harden: 4, convert: 800, check: 50, store: 5 },
    });
    m.recordDocumentJob({
      queueWaitMs: undefined,
      durationMs: 3,
      outcome: 'cached',
      timings: { cache: 2 },
    });
    expect(await samples(m, 'docpipe_document_jobs_total')).toEqual({
      'docpipe_document_jobs_total{"outcome":"rendered"}': 1,
      'docpipe_document_jobs_total{"outcome":"cached"}': 1,
    });
    const wait = await samples(m, 'docpipe_queue_wait_seconds');
    // A later attempt (no wait given) is not a second observation.
    expect(wait['docpipe_queue_wait_seconds_count{}']).toBe(1);
    expect(wait['docpipe_queue_wait_seconds_sum{}']).toBe(1.5);
    expect(wait['docpipe_queue_wait_seconds_bucket{"le":1}']).toBe(0);
    expect(wait['docpipe_queue_wait_seconds_bucket{"le":2.5}']).toBe(1);
    const steps = await samples(m, 'docpipe_render_step_duration_seconds');
    const counts = Object.entries(steps).filter(([k]) => k.includes('_count'));
    expect(Object.fromEntries(counts)).toEqual({
      'docpipe_render_step_duration_seconds_count{"step":"cache"}': 2,
      'docpipe_render_step_duration_seconds_count{"step":"sniff"}': 1,
      'docpipe_render_step_duration_seconds_count{"step":"fill"}': 1,
      'docpipe_render_step_duration_seconds_count{"step":"harden"}': 1,
      'docpipe_render_step_duration_seconds_count{"step":"convert"}': 1,
      'docpipe_render_step_duration_seconds_count{"step":"check"}': 1,
      'docpipe_render_step_duration_seconds_count{"step":"store"}': 1,
    });
    expect(steps['docpipe_render_step_duration_seconds_sum{"step":"convert"}']).toBe(0.8);
    expect(await samples(m, 'docpipe_failures_total')).toEqual({});
  });

  it('counts failures by registry slug; internal is its own, anything else is "other"', async () => {
    const m = new DocpipeMetrics({ processMetrics: false });
    const failed = (slug: string, retryable: boolean) =>
      m.recordDocumentJob({
        queueWaitMs: 1,
        durationMs: 1,
        outcome: 'failed',
        failure: { slug, retryable },
      });
    failed('document-conversion-failed', true);
    failed('document-conversion-failed', true);
    failed('unsupported-file-type', false);
    failed('internal', true);
    failed('Contract 2024-17 for ACME.docx', false);
    expect(await samples(m, 'docpipe_failures_total')).toEqual({
      'docpipe_failures_total{"slug":"document-conversion-failed","retryable":"true"}': 2,
      'docpipe_failures_total{"slug":"unsupported-file-type","retryable":"false"}': 1,
      'docpipe_failures_total{"slug":"internal","retryable":"true"}': 1,
      'docpipe_failures_total{"slug":"other","retryable":"false"}': 1,
    });
    expect(await samples(m, 'docpipe_document_jobs_total')).toEqual({
      'docpipe_document_jobs_total{"outcome":"failed"}': 5,
    });
  });

  it('reads job counts by queue and state at each scrape, and says when it could not', async () => {
    let counts: Record<string, number> = { waiting: 3, active: 1, completed: 7, failed: 0 };
    let down = false;
    const documents: CountedQueue = {
      name: 'documents',
      getJobCounts: () =>
        down ? Promise.reject(new Error('ECONNREFUSED')) : Promise.resolve(counts),
    };
    const m = new DocpipeMetrics({
      processMetrics: false,
      queues: [documents, queue('document-sets', { 'waiting-children': 2 })],
    });
    expect(await samples(m, 'docpipe_jobs')).toEqual({
      'docpipe_jobs{"queue":"documents","state":"waiting"}': 3,
      'docpipe_jobs{"queue":"documents","state":"active"}': 1,
      'docpipe_jobs{"queue":"documents","state":"completed"}': 7,
      'docpipe_jobs{"queue":"documents","state":"failed"}': 0,
      'docpipe_jobs{"queue":"document-sets","state":"waiting-children"}': 2,
    });
    expect(await samples(m, 'docpipe_queue_up')).toEqual({ 'docpipe_queue_up{}': 1 });
    counts = { waiting: 0, active: 0, completed: 11, failed: 1 };
    expect(
      (await samples(m, 'docpipe_jobs'))['docpipe_jobs{"queue":"documents","state":"completed"}'],
    ).toBe(11);
    down = true;
    // No stale figures while Redis does not answer: none at all, and the up gauge at 0.
    expect(await samples(m, 'docpipe_jobs')).toEqual({});
    expect(await samples(m, 'docpipe_queue_up')).toEqual({ 'docpipe_queue_up{}': 0 });
  });

  it('reads office restarts by cause from the pool at each scrape, only when there is a pool', async () => {
    let restarts = { crashed: 0, timeout: 1, recycled: 2, memory: 0, exited: 0 };
    const m = new DocpipeMetrics({ processMetrics: false, officeRestarts: () => restarts });
    expect(await samples(m, 'docpipe_office_restarts_total')).toEqual({
      'docpipe_office_restarts_total{"cause":"crashed"}': 0,
      'docpipe_office_restarts_total{"cause":"timeout"}': 1,
      'docpipe_office_restarts_total{"cause":"recycled"}': 2,
      'docpipe_office_restarts_total{"cause":"memory"}': 0,
      'docpipe_office_restarts_total{"cause":"exited"}': 0,
    });
    restarts = { ...restarts, crashed: 3 };
    expect(
      (await samples(m, 'docpipe_office_restarts_total'))[
        'docpipe_office_restarts_total{"cause":"crashed"}'
      ],
    ).toBe(3);
    const without = new DocpipeMetrics({ processMetrics: false });
    expect(await without.text()).not.toContain('docpipe_office_restarts_total');
  });

  it('writes the Prometheus text format with HELP and TYPE for each metric', async () => {
    const m = new DocpipeMetrics({
      processMetrics: false,
      queues: [queue('documents', { completed: 1 })],
    });
    m.recordHttp('GET', '/readyz', 503, 0.002);
    const text = await m.text();
    expect(m.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text).toContain('# TYPE docpipe_http_requests_total counter');
    expect(text).toContain('# TYPE docpipe_queue_wait_seconds histogram');
    expect(text).toContain('# TYPE docpipe_jobs gauge');
    expect(text).toContain(
      'docpipe_http_requests_total{method="GET",route="/readyz",status="503"} 1',
    );
    expect(text).toContain('docpipe_jobs{queue="documents",state="completed"} 1');
  });
});
