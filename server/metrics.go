package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/verify"
)

// Metrics are verity's Prometheus collectors, served at GET /metrics. One
// value serves one process; the methods are safe for concurrent use and a
// nil *Metrics records nothing.
type Metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	verdicts   *prometheus.CounterVec
	stages     *prometheus.HistogramVec
	ingested   *prometheus.CounterVec
	jobs       *prometheus.CounterVec
	jobsActive prometheus.Gauge
	fetches    *prometheus.CounterVec
	rejections *prometheus.CounterVec
}

// NewMetrics registers verity's collectors, with the Go runtime's and the
// process's, on a registry of its own.
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	secs := []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}
	m := &Metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "verity_http_requests_total",
			Help: "HTTP requests answered, by route, method and status."}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "verity_http_request_duration_seconds",
			Help: "Time to answer an HTTP request (a stream: until it ends), by route and method.", Buckets: secs}, []string{"route", "method"}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "verity_verdicts_total",
			Help: "Verdicts of the verify path (POST /v1/verify and the fact-check's evidence checker), by verdict."}, []string{"verdict"}),
		stages: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "verity_stage_duration_seconds",
			Help: "Time spent in retrieval and NLI judging per call, by stage and outcome.", Buckets: secs}, []string{"stage", "outcome"}),
		ingested: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "verity_ingest_sources_total",
			Help: "Sources finished by ingest jobs this process ran, by outcome (ingested, skipped, failed)."}, []string{"outcome"}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "verity_jobs_total",
			Help: "Ingest job events of this process: submitted, rejected (queue full), started, succeeded, failed, canceled."}, []string{"state"}),
		jobsActive: prometheus.NewGauge(prometheus.GaugeOpts{Name: "verity_jobs_running",
			Help: "Ingest jobs running in this process now."}),
		fetches: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "verity_fetches_total",
			Help: "Outbound fetches of the guarded fetcher, by status: an HTTP status code, or blocked, timeout, too_large, robots, redirects, content_type, error."}, []string{"status"}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "verity_rejected_requests_total",
			Help: "Requests refused by a limit: rate (429, per-client rate) or busy (503, heavy route at its cap)."}, []string{"reason"}),
	}
	reg.MustRegister(m.requests, m.latency, m.verdicts, m.stages, m.ingested, m.jobs, m.jobsActive, m.fetches, m.rejections)
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

func (m *Metrics) rejected(reason string) {
	if m != nil {
		m.rejections.WithLabelValues(reason).Inc()
	}
}

// ObserveFetch counts one outbound fetch; status is a code or a reason
// (see verity_fetches_total).
func (m *Metrics) ObserveFetch(status string) {
	if m != nil {
		m.fetches.WithLabelValues(status).Inc()
	}
}

// ObserveIngest counts sources an ingest job finished since its last
// report: the differences of its running totals.
func (m *Metrics) ObserveIngest(ingested, skipped, failed int) {
	if m == nil {
		return
	}
	for outcome, n := range map[string]int{"ingested": ingested, "skipped": skipped, "failed": failed} {
		if n > 0 {
			m.ingested.WithLabelValues(outcome).Add(float64(n))
		}
	}
}

// JobStarted counts a job this process starts to run; the returned func
// records how it ended.
func (m *Metrics) JobStarted() func(err error) {
	if m == nil {
		return func(error) {}
	}
	m.jobs.WithLabelValues("started").Inc()
	m.jobsActive.Inc()
	return func(err error) {
		m.jobsActive.Dec()
		state := "succeeded"
		switch {
		case errors.Is(err, context.Canceled):
			state = "canceled"
		case err != nil:
			state = "failed"
		}
		m.jobs.WithLabelValues(state).Inc()
	}
}

// stageOutcome is "ok" or "error" for a stage's label.
func stageOutcome(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}

// Retriever times r's calls as stage "retrieval".
func (m *Metrics) Retriever(r verify.Retriever) verify.Retriever {
	if m == nil {
		return r
	}
	return timedRetriever{r, m}
}

type timedRetriever struct {
	verify.Retriever
	m *Metrics
}

func (t timedRetriever) Retrieve(ctx context.Context, claim string, opts retrieval.Options) ([]evidence.Judged, error) {
	start := time.Now()
	out, err := t.Retriever.Retrieve(ctx, claim, opts)
	t.m.stages.WithLabelValues("retrieval", stageOutcome(err)).Observe(time.Since(start).Seconds())
	return out, err
}

// Judge times j's calls as stage "judge".
func (m *Metrics) Judge(j verify.Judge) verify.Judge {
	if m == nil {
		return j
	}
	return timedJudge{j: j, m: m}
}

type timedJudge struct {
	j verify.Judge
	m *Metrics
}

func (t timedJudge) Judge(ctx context.Context, claim string, passages []string) ([]evidence.Judgment, error) {
	start := time.Now()
	out, err := t.j.Judge(ctx, claim, passages)
	t.m.stages.WithLabelValues("judge", stageOutcome(err)).Observe(time.Since(start).Seconds())
	return out, err
}

// Verifier counts the verdicts of v's answers.
func (m *Metrics) Verifier(v Verifier) Verifier {
	if m == nil {
		return v
	}
	return countedVerifier{v, m}
}

type countedVerifier struct {
	Verifier
	m *Metrics
}

func (c countedVerifier) Verify(ctx context.Context, req verify.Request) (evidence.Result, error) {
	res, err := c.Verifier.Verify(ctx, req)
	if err == nil {
		c.m.verdicts.WithLabelValues(string(res.Verdict)).Inc()
	}
	return res, err
}

// countedJobs counts submissions: accepted or rejected.
type countedJobs struct {
	Jobs
	m *Metrics
}

func (c countedJobs) Submit(ctx context.Context, sources []string) (corpus.Job, error) {
	j, err := c.Jobs.Submit(ctx, sources)
	state := "submitted"
	if err != nil {
		state = "rejected"
	}
	c.m.jobs.WithLabelValues(state).Inc()
	return j, err
}

// countRequests records every request's route, status and duration. The
// route is the pattern (/v1/jobs/:id), never the raw path, so the label
// set stays bounded; requests that match no route count as "unmatched".
func (s *Server) countRequests() gin.HandlerFunc {
	return func(c *gin.Context) {
		if s.metrics == nil {
			c.Next()
			return
		}
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		s.metrics.requests.WithLabelValues(route, c.Request.Method, strconv.Itoa(c.Writer.Status())).Inc()
		s.metrics.latency.WithLabelValues(route, c.Request.Method).Observe(time.Since(start).Seconds())
	}
}

// JobCounter counts stored jobs by state; corpus.JobCounter implements it.
type JobCounter interface {
	CountJobs(ctx context.Context) (map[corpus.JobState]int, error)
}

// WatchJobs publishes verity_jobs{state}, the stored jobs in each state,
// read from c at every scrape. Over PostgreSQL it is the whole queue's,
// workers' jobs included.
func (m *Metrics) WatchJobs(c JobCounter) {
	if m != nil {
		m.reg.MustRegister(jobStates{c})
	}
}

// jobStates is a collector that asks the store at scrape time.
type jobStates struct{ c JobCounter }

var jobStatesDesc = prometheus.NewDesc("verity_jobs", "Stored ingest jobs by state (queued, running, succeeded, failed, canceled).", []string{"state"}, nil)

func (j jobStates) Describe(ch chan<- *prometheus.Desc) { ch <- jobStatesDesc }

func (j jobStates) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	counts, err := j.c.CountJobs(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(jobStatesDesc, err)
		return
	}
	for _, st := range []corpus.JobState{corpus.JobQueued, corpus.JobRunning, corpus.JobSucceeded, corpus.JobFailed, corpus.JobCanceled} {
		ch <- prometheus.MustNewConstMetric(jobStatesDesc, prometheus.GaugeValue, float64(counts[st]), string(st))
	}
}
